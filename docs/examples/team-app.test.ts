// The team's service, as a client sees it, on the memory store and SQLite: relations,
// timestamps, a unique ISBN, a checked foreign key and the audit row committed with the book.
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { serveHttp } from '@resourcery/testing';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { mountLibrary } from './team-app.js';

const stores: Record<string, () => Store> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

describe.each(Object.entries(stores))('the team app (%s)', (_name, makeStore) => {
  it('serves relations, timestamps, unique values, foreign keys and audits', async () => {
    const app = express();
    mountLibrary(app, makeStore());
    const { baseUrl, close } = await serveHttp(app);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
    };
    try {
      const { body: created } = await call('POST', '/authors', { name: 'Ursula K. Le Guin' });
      const author = created.author;
      expect(author.createdAt).toBe(author.updatedAt);
      const book = (
        await call('POST', '/books', { title: 'A Wizard of Earthsea', authorId: author.id, isbn: '9780547773742' })
      ).body.book;
      expect((await call('GET', `/books/${book.id}?include=author`)).body.book.author).toEqual(author);

      expect(await call('POST', '/books', { title: 'Copy', authorId: author.id, isbn: '9780547773742' })).toMatchObject(
        {
          status: 422,
          body: { errors: { isbn: ['is already taken'] } },
        },
      );
      expect(await call('POST', '/books', { title: 'Orphan', authorId: author.id + 1000 })).toMatchObject({
        status: 422,
        body: { errors: { authorId: ['does not exist'] } },
      });
      expect((await call('DELETE', `/authors/${author.id}`)).status).toBe(409);

      expect((await call('PATCH', `/books/${book.id}`, { year: 1968 })).status).toBe(200);
      expect((await call('DELETE', `/books/${book.id}`)).status).toBe(204);
      const { audits } = (await call('GET', '/audits?sort=id')).body;
      expect(audits.map((row: { action: string; bookId: number }) => [row.action, row.bookId])).toEqual([
        ['create', book.id],
        ['update', book.id],
        ['destroy', book.id],
      ]);
      // The refused writes left no audit row: they were rolled back with the book.
    } finally {
      await close();
    }
  });
});
