import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { SqliteDialect, Kysely } from 'kysely';
import { importBundle } from '/work/wt-bench/bench/lib/workspace.mjs';
const lib = await importBundle(
  `export { bearerJwt, createApi } from '@resourcery/core';
   export { sqlStore } from '@resourcery/sql';
   export { resources } from './examples/tracker/src/resources.ts';
   export { trackerPrincipal } from './examples/tracker/src/principal.ts';`, { source: false, name: 'explore' });
const SECRET='s'.repeat(20);
const file = new Database('/tmp/bb/x.sqlite'); file.pragma('journal_mode = WAL');
const db = new Kysely({ dialect: new SqliteDialect({ database: file }), log: (e) => { if (process.env.LOG) console.log(e.query.sql, e.query.parameters) } });
const api = lib.createApi({ resources: lib.resources, store: lib.sqlStore(db), secret: 'x'.repeat(20),
  authenticate: lib.bearerJwt({ secret: SECRET, principal: lib.trackerPrincipal }),
  tenancy: { field: 'orgId', of: (p) => p.org } });
await api.ready();
const token = await new SignJWT({ org: 1, role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').sign(new TextEncoder().encode(SECRET));
const req = (method, path, body) => ({ method, path, basePath: '/api', rawQuery: '', headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) }, ...(body ? { body: (async function* () { yield Buffer.from(body); })(), readDeclaredBody: async () => Buffer.from(body) } : {}) });
const show = async (m, p, b) => { const a = await api.handle(req(m, p, b && JSON.stringify(b))); console.log(a.status, JSON.stringify(a.headers), a.body.slice(0, 1500)); };
await show('POST', '/users', { user: { name: 'A', email: 'a@x.example', role: 'member' } });
await show('POST', '/projects', { project: { name: 'P' } });
await show('POST', '/labels', { label: { name: 'bug', color: '#ff0000' } });
process.env.LOG && console.log('---- single');
await show('POST', '/issues', { issue: { projectId: 1, title: 'Login crash', labelIds: [1], assigneeId: 1, estimate: '1.50', dueDate: '2026-01-02' } });
process.env.LOG && console.log('---- bulk');
await show('POST', '/issues', { issues: [{ projectId: 1, title: 'A b' }, { projectId: 1, title: 'C', labelIds: [1] }] });
await show('POST', '/issues', { issues: [{ projectId: 2, title: 'A b' }, { projectId: 1, title: '' , priority: 9}] });
