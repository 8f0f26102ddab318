import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import type { HttpSuiteTarget } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import type { Caller, ClientRun, Created } from './generated-clients/answers.js';
import { generateClients, lintDocument, responseChecker } from './helpers/generated-clients.js';
import { serverStore, serveTracker } from './helpers/tracker-stores.js';

// Issue #27's features judged from outside, by clients nobody here wrote: the tracker's
// /api/openapi.json (fetched without a token) passes Redocly's strict lint and the OpenAPI 3.1
// validator; openapi-typescript's types with openapi-fetch, and Orval's fetch client, are
// generated from it, typechecked with the calls of generated-clients/calls.ts and the type checks
// of generated-clients/types.ts, then drive the tracker over real HTTP with bearer tokens on every
// store: labels, q=, filter[labels.name], include=labels, statistics, archive and restore, a
// status outside the list, bulk writes and an upsert. Every answer must be the contract's and fit
// the document's schema.

const SECRET = 'generated-clients-secret';
const here = fileURLToPath(new URL('./', import.meta.url));
// Inside the repository, so that the generated files resolve openapi-fetch and vitest from its node_modules.
const folder = join(here, '../node_modules/.cache', `generated-clients-${process.pid}-${Date.now()}`);
const files = mkdtempSync(join(tmpdir(), 'resourcery-tracker-clients-'));

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
interface Calls {
  withOpenapiFetch(caller: Caller): Promise<ClientRun>;
  withOrval(caller: Caller): Promise<ClientRun>;
}

let document: Json;
let lint: string[];
let typecheck: string;
let calls: Calls;

/** An admin's bearer token of organization `org`, signed as examples/tracker/scripts/token.mjs signs it. */
const adminOf = (org: number) =>
  new SignJWT({ org, role: 'admin' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(org))
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));

beforeAll(async () => {
  const target = await serveTracker(memoryStore(), SECRET);
  try {
    const served = await fetch(`${target.baseUrl}/openapi.json`);
    expect(served.status).toBe(200);
    document = await served.json();
  } finally {
    await target.close();
  }
  lint = await lintDocument(files, document);
  typecheck = await generateClients(folder, document);
  if (!typecheck) calls = (await import(pathToFileURL(join(folder, 'calls.ts')).href)) as Calls;
}, 180_000);

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

describe("the tracker's /api/openapi.json, read by tools", () => {
  it('passes Redocly lint (recommended-strict) and the OpenAPI 3.1 validator', async () => {
    expect(lint).toEqual([]);
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(document.components.securitySchemes).toHaveProperty('bearer');
  });

  it('gives openapi-typescript and Orval types the calls and the type checks typecheck against', () => {
    // labelIds: number[], the status union, q and the label filters, the statistics operation:
    // generated-clients/types.ts; a status outside the list is an error: calls.ts's @ts-expect-error.
    expect(typecheck).toBe('');
  });
});

/** The checks of one client's run: the contract's answers, each fitting the document. */
function checkRun(name: string, run: () => ClientRun, org: number) {
  const reply = (call: string) => {
    const found = run().replies[call];
    if (!found) throw new Error(`${name} made no call "${call}"`);
    return found as { operation: string; status: number; body: Json; total: string | null };
  };
  const ids = (call: string) => reply(call).body.issues.map((issue: { id: number }) => issue.id);
  let c: Created;
  beforeAll(() => {
    c = run().created;
  });

  it(`${name}: every answer fits the document's schema for its status`, () => {
    const check = responseChecker(document);
    for (const [call, { operation, status, body }] of Object.entries(run().replies)) {
      expect(check(operation, status, body), `${call}: ${operation} ${status} ${JSON.stringify(body)}`).toBe('');
    }
  });

  it(`${name}: an issue created with labelIds [ui, bug, ui] holds them once, ascending`, () => {
    expect(reply('created').status).toBe(200);
    expect(reply('created').body.issue).toMatchObject({
      id: c.crash,
      orgId: org,
      status: 'in_progress',
      estimate: '2.50',
      labelIds: [c.bug, c.ui],
      archivedAt: null,
    });
    expect(run().typed).toMatchObject({ labelIds: [c.bug, c.ui], status: 'in_progress', counted: 1, grouped: 'done' });
  });

  it(`${name}: q=, filter[labels.name] and include=labels keep and complete the right issues`, () => {
    expect(reply('search')).toMatchObject({ status: 200, total: '1' });
    const [found] = reply('search').body.issues;
    expect(found).toMatchObject({ id: c.crash, labelIds: [c.bug, c.ui] });
    expect(found.labels).toEqual([
      { id: c.bug, orgId: org, name: 'bug', color: '#d73a4a' },
      { id: c.ui, orgId: org, name: 'ui', color: '#0e8a16' },
    ]);
    expect([reply('any label').status, ids('any label'), reply('any label').total]).toEqual([
      200,
      [c.crash, c.exported],
      '2',
    ]);
  });

  it(`${name}: statistics group, sum exactly, and take q and the label filter`, () => {
    expect(reply('stats')).toMatchObject({ status: 200 });
    expect(reply('stats').body.stats).toEqual([
      { status: 'done', count: 1, sum: { estimate: '3.00' } },
      { status: 'in_progress', count: 1, sum: { estimate: '2.50' } },
      { status: 'open', count: 1, sum: { estimate: '1.25' } },
    ]);
    expect(reply('stats searched').body).toEqual({
      stats: [
        { status: 'done', count: 1, sum: { estimate: '3.00' } },
        { status: 'in_progress', count: 1, sum: { estimate: '2.50' } },
      ],
    });
    expect(reply('stats by label').body).toEqual({ stats: [{ count: 2, max: { estimate: '2.50' } }] });
  });

  it(`${name}: an archived issue is 404, counted with archived=true, and restored by PATCH ?archived=true`, () => {
    expect(reply('archive').status).toBe(204);
    expect(reply('archived show')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(reply('archived stats').body).toEqual({ stats: [{ count: 1 }] });
    expect(reply('restore').status).toBe(200);
    expect(reply('restore').body.issue).toMatchObject({
      id: c.typo,
      archivedAt: null,
      status: 'done',
      labelIds: [c.bug],
    });
    // Only this organization's issues: the other client's, in another organization, do not exist here.
    expect([ids('after restore'), reply('after restore').total]).toEqual([[c.crash, c.exported, c.typo], '3']);
  });

  it(`${name}: a status outside the list is 422 on a write, matches nothing in a filter; no token is 401`, () => {
    expect(reply('unlisted status')).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    expect(Object.keys(reply('unlisted status').body.errors)).toEqual(['status']);
    expect(reply('unlisted filter')).toMatchObject({ status: 200, body: { issues: [] }, total: '0' });
    expect(reply('no token')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });

  it(`${name}: bulk writes create, change and archive several issues, all or none; a label upserts by name`, () => {
    const [first, second] = run().bulk;
    expect(reply('bulk create').status).toBe(200);
    expect(reply('bulk create').body.issues.map((issue: { title: string }) => issue.title)).toEqual([
      'Bulk one',
      'Bulk two',
    ]);
    expect(reply('bulk update').status).toBe(200);
    expect(reply('bulk update').body.issues).toEqual([
      expect.objectContaining({ id: first, status: 'done', title: 'Bulk one' }),
      expect.objectContaining({ id: second, status: 'open', title: 'Bulk 2', estimate: '1.00' }),
    ]);
    expect(reply('bulk stale')).toMatchObject({ status: 412, body: { code: 'precondition_failed' } });
    expect(reply('bulk invalid')).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    expect(Object.keys(reply('bulk invalid').body.errors)).toEqual(['/issues/1/title']);
    expect(reply('bulk destroy').status).toBe(204);
    // Archived, both; and the list with an invalid entry stored nothing ("Bulk fine" is not there).
    expect([ids('after bulk'), reply('after bulk').total]).toEqual([[], '0']);
    expect(reply('upsert')).toMatchObject({
      status: 200,
      body: { label: { id: c.bug, name: 'bug', color: '#b60205' } },
    });
  });
}

/** Both clients against the tracker on one store, each an admin of an organization of its own. */
function onStore(label: string, open: () => Store) {
  describe(`generated clients against the tracker on ${label}`, () => {
    let target: HttpSuiteTarget;
    let openapiFetch: ClientRun;
    let orval: ClientRun;
    beforeAll(async () => {
      target = await serveTracker(open(), SECRET);
      // The same document, whatever the store.
      expect(await (await fetch(`${target.baseUrl}/openapi.json`)).json()).toEqual(document);
      openapiFetch = await calls.withOpenapiFetch({ baseUrl: target.baseUrl, token: await adminOf(1) });
      orval = await calls.withOrval({ baseUrl: target.baseUrl, token: await adminOf(2) });
    }, 120_000);
    afterAll(async () => {
      await target?.close();
    });
    checkRun('openapi-fetch', () => openapiFetch, 1);
    checkRun('Orval', () => orval, 2);
  });
}

onStore('the memory store', () => memoryStore());
let sqliteFiles = 0;
onStore('SQLite', () => sqlStore(`sqlite:${join(files, `${++sqliteFiles}.sqlite`)}`));
for (const name of ['postgres', 'mariadb'] as const) {
  if (serverAvailable(name)) onStore(SERVERS[name].label, () => serverStore(name, 'gen'));
}
