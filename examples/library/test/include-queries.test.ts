import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedStore, type Counter, countedStores } from '../../../packages/sql/test/helpers/counting-store.js';
import { createApp } from '../src/app.js';
import { droppingLibraryTables, freshPrefix } from './helpers/library-stores.js';

// CONTRACT part 3: "index pays one store query per included relation, never one per record".
// A page of 100 books with include=author,reviews is 3 queries: the books, their authors, their
// reviews. On the memory store the collections count list/find calls; on SQL, Kysely's `log`
// counts the statements the database runs.

async function post(baseUrl: string, path: string, body: unknown): Promise<{ id: number }> {
  const reply = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.status, await reply.clone().text()).toBe(200);
  return Object.values((await reply.json()) as Record<string, { id: number }>)[0] as { id: number };
}

/** 10 authors with 10 books each (100 books); every third book has two reviews. */
async function seed(baseUrl: string): Promise<void> {
  for (let a = 0; a < 10; a++) {
    const author = await post(baseUrl, '/authors', { name: `Author ${a}` });
    for (let b = 0; b < 10; b++) {
      const book = await post(baseUrl, '/books', { title: `Book ${a}-${b}`, authorId: author.id });
      if (b % 3 === 0) {
        await post(baseUrl, '/reviews', { bookId: book.id, rating: 5 });
        await post(baseUrl, '/reviews', { bookId: book.id, rating: 3 });
      }
    }
  }
}

function queriesOf(label: string, setup: () => CountedStore): void {
  describe(`include costs one query per relation (${label})`, () => {
    let target: HttpSuiteTarget;
    let counter: Counter;
    let release: (() => Promise<void>) | undefined;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const made = setup();
      counter = made.counter;
      release = made.release;
      const app = createApp(made.store);
      await app.ready();
      target = await serveHttp(app);
      close = () => app.close();
      await seed(target.baseUrl);
    }, 120_000);
    afterAll(async () => {
      await target?.close();
      await close?.();
      await release?.();
    });

    it('an index of 100 books with include=author,reviews is 3 queries', async () => {
      counter.queries = 0;
      counter.statements = [];
      const reply = await fetch(`${target.baseUrl}/books?per_page=100&count=false&include=author,reviews`);
      expect(reply.status).toBe(200);
      const { books } = (await reply.json()) as { books: { author: unknown; reviews: unknown[] }[] };
      expect(books).toHaveLength(100);
      expect(books.every((book) => book.author !== null)).toBe(true);
      expect(books.reduce((sum, book) => sum + book.reviews.length, 0)).toBe(80);
      expect(counter.queries, counter.statements.join('\n')).toBe(3);
    });

    it('a show with include=author,reviews is 3 queries', async () => {
      counter.queries = 0;
      counter.statements = [];
      const reply = await fetch(`${target.baseUrl}/books?per_page=1&count=false&sort=id`);
      const [first] = ((await reply.json()) as { books: { id: number }[] }).books;
      counter.queries = 0;
      counter.statements = [];
      const shown = await fetch(`${target.baseUrl}/books/${first?.id}?include=author,reviews`);
      expect(shown.status).toBe(200);
      expect(counter.queries, counter.statements.join('\n')).toBe(3);
    });
  });
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-library-queries-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

for (const [label, setup] of countedStores(folder, 'library.sqlite', {
  prefix: () => freshPrefix('q'),
  dropping: droppingLibraryTables,
})) {
  queriesOf(label, setup);
}
