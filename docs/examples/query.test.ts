// Every request of docs/query.md that is followed by its answer is sent to examples/library
// (on the memory store and on SQLite, with the records of query-seed.ts), and must get exactly
// that answer: the page cannot show an operator behaving otherwise than the server does.
import { readFileSync } from 'node:fs';
import { createApi, memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../examples/library/src/resources.js';
import { AUTHORS, BOOKS } from './query-seed.js';

const page = readFileSync(new URL('../query.md', import.meta.url), 'utf8');
const EXAMPLE = /```http\nGET (\S+)\n```\n\n```json\n([\s\S]*?)\n```/g;
const examples = [...page.matchAll(EXAMPLE)].map(([, target, answer]) => ({ target: target as string, answer }));

/** The answer without the timestamps, which the page leaves out (they are the time of the run). */
function withoutTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimestamps);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'createdAt' && key !== 'updatedAt')
      .map(([key, member]) => [key, withoutTimestamps(member)]),
  );
}

const stores: Record<string, () => Store> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

describe.each(Object.entries(stores))('docs/query.md (%s)', (_name, makeStore) => {
  const api = createApi({ resources, store: makeStore() });
  afterAll(() => api.close());
  beforeAll(async () => {
    for (const [path, records] of [['/authors', AUTHORS] as const, ['/books', BOOKS] as const]) {
      for (const body of records) {
        const created = await callApi(api, { method: 'POST', path, body });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
      }
    }
  });

  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(8);
  });

  it.each(examples)('GET $target', async ({ target, answer }) => {
    const reply = await callApi(api, { method: 'GET', path: target.replace(/^\/api/, '') });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(withoutTimestamps(reply.body)).toEqual(JSON.parse(answer as string));
  });
});
