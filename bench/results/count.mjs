import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { SqliteDialect, Kysely } from 'kysely';
import { importBundle } from '../lib/workspace.mjs';
const lib = await importBundle(
  `export { bearerJwt, createApi } from '@resourcery/core';
   export { sqlStore } from '@resourcery/sql';
   export { resources } from './examples/tracker/src/resources.ts';
   export { trackerPrincipal } from './examples/tracker/src/principal.ts';`, { source: false, name: 'explore' });
const SECRET='s'.repeat(20);
const file = new Database('/tmp/bb/x.sqlite'); file.pragma('journal_mode = WAL');
let counts = null;
const db = new Kysely({ dialect: new SqliteDialect({ database: file }), log: (e) => { if (counts) { const k = process.env.FULL && e.query.sql.includes("once") ? e.query.sql.slice(-700) : e.query.sql.slice(0, 60); counts[k] = (counts[k] ?? 0) + 1; } } });
const api = lib.createApi({ resources: lib.resources, store: lib.sqlStore(db), secret: 'x'.repeat(20),
  authenticate: lib.bearerJwt({ secret: SECRET, principal: lib.trackerPrincipal }),
  tenancy: { field: 'orgId', of: (p) => p.org } });
await api.ready();
const token = await new SignJWT({ org: 1, role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').sign(new TextEncoder().encode(SECRET));
const req = (method, path, body) => ({ method, path, basePath: '/api', rawQuery: '', headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) }, ...(body ? { body: (async function* () { yield Buffer.from(body); })(), readDeclaredBody: async () => Buffer.from(body) } : {}) });
const post = async (p, b) => { const a = await api.handle(req('POST', p, JSON.stringify(b))); if (a.status !== 200) console.log(a.status, a.body); };
for (let i = 0; i < 5; i++) await post('/users', { user: { name: 'A', email: `a${i}@x.example`, role: 'member' } });
for (let i = 0; i < 5; i++) await post('/projects', { project: { name: `P${i}` } });
for (let i = 0; i < 5; i++) await post('/labels', { label: { name: `l${i}`, color: '#ff0000' } });
counts = {};
await post('/issues', { issues: Array.from({ length: 100 }, (_, i) => ({ projectId: 1 + (i % 5), title: 'A b', assigneeId: i % 2 ? 1 + (i % 5) : null, labelIds: i % 3 ? [1 + (i % 5)] : [] })) });
console.log(counts);
