import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { memoryStore } from '@resourcery/core';
import type { HttpSuiteTarget } from '@resourcery/testing';
import openapiTS, { astToString } from 'openapi-typescript';
import generateOrval from 'orval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answers, Seeded } from './generated-clients/answers.js';
import { serveLibrary } from './helpers/library-stores.js';

// Clients generated from the library example's /api/openapi.json, as a team would generate them:
// openapi-fetch over openapi-typescript's types, and Orval's fetch client. Each makes one call of
// every kind of query parameter (generated-clients/calls.ts, typechecked against the generated
// code with tsc) against the example's server; each answer must be the one the same query, written
// by hand as docs/query.md shows it, gets. openapi-fetch sends arrays as repeated keys
// (`include=author&include=reviews`); Orval follows the document's `explode`.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
// Inside the repository, so that the generated files resolve openapi-fetch from its node_modules.
const folder = join(here, '../node_modules/.cache', `generated-clients-${process.pid}-${Date.now()}`);

/** Each kind of call, as written by hand; `check` says what its answer must hold. */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes, checked by expect
const BY_HAND: Record<string, { path: (seeded: Seeded) => string; check: (body: any) => void }> = {
  'filter eq': { path: () => '/books?filter[title]=Dune', check: (b) => expect(b.books).toHaveLength(1) },
  'filter any-of': {
    path: (s) => `/books?filter[id][]=${s.earthsea}&filter[id][]=${s.dune}&sort=id`,
    check: (b) =>
      expect(b.books.map((book: { title: string }) => book.title)).toEqual(['A Wizard of Earthsea', 'Dune']),
  },
  'filter operators': {
    path: () => '/books?filter[year][gte]=1960&filter[year][lt]=1970&sort=year',
    check: (b) => expect(b.books.map((book: { year: number }) => book.year)).toEqual([1965, 1968]),
  },
  'relation filter': {
    path: () => '/books?filter[author.name][prefix]=Ursula&filter[author.country]=US&sort=id',
    check: (b) => expect(b.books).toHaveLength(2),
  },
  sort: { path: () => '/books?sort=-year,id', check: (b) => expect(b.books[0].year).toBe(1976) },
  'page and per_page': {
    path: () => '/books?sort=id&page=2&per_page=2',
    check: (b) => expect(b.books.map((book: { title: string }) => book.title)).toEqual(['Dune', 'Children of Dune']),
  },
  count: { path: () => '/books?count=false&sort=id', check: (b) => expect(b.books).toHaveLength(4) },
  'include (index)': {
    path: () => '/books?include=author,reviews&sort=id',
    check: (b) => expect(b.books[0].reviews).toHaveLength(3),
  },
  'include (show)': {
    path: (s) => `/books/${s.earthsea}?include=author,reviews`,
    check: (b) => expect([b.book.author.name, b.book.reviews.length]).toEqual(['Ursula K. Le Guin', 3]),
  },
  'fields (index)': {
    path: () => '/books?fields=title,year&sort=id',
    check: (b) => expect(Object.keys(b.books[0])).toEqual(['id', 'title', 'year']),
  },
  'fields and include (show)': {
    path: (s) => `/books/${s.dune}?fields=title,year&include=author`,
    check: (b) => expect(Object.keys(b.book).sort()).toEqual(['author', 'id', 'title', 'year']),
  },
};

let target: HttpSuiteTarget;
let seeded: Seeded;
let answers: Answers;

/** POSTs a record; answers its id. */
async function create(path: string, body: object): Promise<number> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, { id: number }>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return (Object.values(json)[0] as { id: number }).id;
}

beforeAll(async () => {
  target = await serveLibrary(memoryStore());
  const leGuin = await create('/authors', { name: 'Ursula K. Le Guin', country: 'US' });
  const herbert = await create('/authors', { name: 'Frank Herbert', country: 'US' });
  const earthsea = await create('/books', { title: 'A Wizard of Earthsea', authorId: leGuin, year: 1968 });
  await create('/books', { title: 'The Dispossessed', authorId: leGuin, year: 1974 });
  const dune = await create('/books', { title: 'Dune', authorId: herbert, year: 1965 });
  await create('/books', { title: 'Children of Dune', authorId: herbert, year: 1976 });
  for (const rating of [5, 4, 3]) await create('/reviews', { bookId: earthsea, rating });
  seeded = { earthsea, dune };

  mkdirSync(folder, { recursive: true });
  const document = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
  writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
  writeFileSync(join(folder, 'schema.ts'), astToString(await openapiTS(document)));
  await generateOrval(
    {
      input: { target: join(folder, 'openapi.json') },
      output: { target: join(folder, 'orval.ts'), client: 'fetch', mode: 'single', baseUrl: target.baseUrl },
    },
    folder,
  );
  for (const file of ['calls.ts', 'answers.ts'])
    copyFileSync(join(here, 'generated-clients', file), join(folder, file));
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['calls.ts'] }));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  const typecheck = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', folder], { encoding: 'utf8' });
  if (typecheck.status !== 0)
    throw new Error(`the calls do not typecheck against the generated clients:\n${typecheck.stdout}`);
  const calls = (await import(pathToFileURL(join(folder, 'calls.ts')).href)) as {
    callEveryKind(baseUrl: string, seeded: Seeded): Promise<Answers>;
  };
  answers = await calls.callEveryKind(target.baseUrl, seeded);
}, 180_000);

afterAll(async () => {
  await target?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('clients generated from /api/openapi.json (openapi-fetch, Orval)', () => {
  for (const [kind, { path, check }] of Object.entries(BY_HAND)) {
    it(`${kind}: both get the answer of ${path({ earthsea: 1, dune: 3 })}`, async () => {
      const response = await fetch(`${target.baseUrl}${path(seeded)}`);
      const body = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(200);
      check(body);
      for (const [client, answer] of Object.entries(answers[kind] ?? {})) {
        expect(answer.status, `${client}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body, client).toEqual(body);
        expect(answer.total, client).toBe(response.headers.get('x-total-count'));
      }
    });
  }

  it('after: both follow the cursor of the next link to the same second page', async () => {
    const first = await fetch(`${target.baseUrl}/reviews?per_page=2`);
    const next = /<([^>]*)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] as string;
    const second = await (await fetch(new URL(next, target.baseUrl))).json();
    expect(second.reviews).toHaveLength(1);
    const { openapiFetch, orval } = answers.after ?? {};
    expect([openapiFetch?.status, orval?.status]).toEqual([200, 200]);
    expect(openapiFetch?.body).toEqual(second);
    expect(orval?.body).toEqual(second);
  });
});
