// Every request of docs/search.md that is followed by its answer is sent to the articles of
// search.ts (on the memory store and on SQLite, with the articles below), as a reader, or as an
// admin when the request says `x-role: admin`, and must get exactly that answer.
import { readFileSync } from 'node:fs';
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi } from './search.js';

const page = readFileSync(new URL('../search.md', import.meta.url), 'utf8');
const EXAMPLE = /```http\nGET (\S+)( \(as an admin\))?\n```\n\n```json\n([\s\S]*?)\n```/g;
const examples = [...page.matchAll(EXAMPLE)].map(([, target, admin, answer]) => ({
  target: target as string,
  admin: admin !== undefined,
  answer: answer as string,
}));

const ARTICLES = [
  { title: 'Login crash on start-up', body: 'The app crashes when the network is down.', notes: 'Ask Ada' },
  { title: 'Straße names are cut', body: 'ΣΊΣΥΦΟΣ too; see snake_case_names.', notes: null },
  { title: 'Café menu', body: null, notes: 'Crashes only on Sundays' },
];

const stores: Record<string, () => Store> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

describe.each(Object.entries(stores))('docs/search.md (%s)', (_name, makeStore) => {
  const api = articlesApi(makeStore());
  afterAll(() => api.close());
  beforeAll(async () => {
    for (const body of ARTICLES) {
      const created = await callApi(api, { method: 'POST', path: '/articles', body, headers: { 'x-role': 'admin' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
  });

  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(5);
  });

  it.each(examples)('GET $target', async ({ target, admin, answer }) => {
    const headers = { 'x-role': admin ? 'admin' : 'reader' };
    const reply = await callApi(api, { method: 'GET', path: target, headers });
    const expected = JSON.parse(answer);
    if (expected.status) expect(reply.body).toMatchObject(expected);
    else expect(reply.body).toEqual(expected);
    expect(reply.status).toBe(expected.status ?? 200);
  });
});
