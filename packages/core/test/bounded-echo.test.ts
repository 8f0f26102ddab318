import 'reflect-metadata';
import { Book } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import { echo } from '../src/errors/echo.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// What the client sent is repeated in a problem's detail only in part: the runtimes in front of
// the core (Fetch runtimes accept any token as a method) do not all bound it.

const api = createApi({ resources: [defineResource({ name: 'book', model: Book })], store: memoryStore() });
const request = (method: string, path: string) => ({ method, path, basePath: '/api', rawQuery: '', headers: {} });

async function detailOf(method: string, path: string): Promise<string> {
  const response = await api.handle(request(method, path));
  return JSON.parse(response.body as string).detail;
}

describe('echo', () => {
  it('keeps short values, cuts long ones and says how long they were', () => {
    expect(echo('Dune')).toBe('Dune');
    expect(echo('x'.repeat(100))).toBe('x'.repeat(100));
    expect(echo('x'.repeat(10_000))).toBe(`${'x'.repeat(100)}… (10000 characters)`);
    expect(echo('abc', 2)).toBe('ab… (3 characters)');
  });

  it('never cuts a surrogate pair in half', () => {
    const cut = echo(`${'x'.repeat(99)}😀${'y'.repeat(50)}`);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut.startsWith(`${'x'.repeat(99)}…`)).toBe(true);
  });
});

describe('problems of a hostile request', () => {
  it('repeat a bounded part of a huge method, path or id', async () => {
    const method = 'X'.repeat(5000);
    for (const [verb, path] of [
      [method, '/books'],
      [method, '/books/1'],
      [method, '/openapi.json'],
      ['GET', `/${'p'.repeat(5000)}`],
      ['GET', `/books/${'9'.repeat(10_000)}`],
      ['GET', `/docs/${'d'.repeat(5000)}`],
    ] as const) {
      const detail = await detailOf(verb, path);
      expect(detail.length, detail.slice(0, 120)).toBeLessThanOrEqual(300);
    }
  });
});
