import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import type { SqlStoreProvider } from '@resourcery/sql';
import { bookResource, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from './helpers/databases.js';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-behaviour-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function serve(store: SqlStoreProvider, resource = bookResource()) {
  const target = await serveHttp(
    express().use('/api', resourcery({ resources: [resource], store, logError: () => {} })),
  );
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };
  return { send, close: () => target.close().finally(() => store.close()) };
}

for (const database of testDatabases(folder)) {
  describe(database.label, () => {
    it('answers 422 naming the field when a write breaks a unique constraint, with no SQL in the body', async () => {
      const { store, tablePrefix } = database.open();
      const api = await serve(store);
      try {
        expect((await api.send('POST', '/books', { name: 'Dune', author: 'Herbert' })).status).toBe(200);
        // A constraint the declaration cannot express, added by the application's own migration.
        const table = `${tablePrefix}books`;
        await store.db.schema.createIndex(`${table}_name_unique`).unique().on(table).column('name').execute();
        const duplicate = await api.send('POST', '/books', { name: 'Dune', author: 'Someone else' });
        expect(duplicate.status).toBe(422);
        expect(duplicate.body.errors).toEqual({ name: ['is already taken'] });
        expect(duplicate.text).not.toMatch(/unique|constraint failed|duplicate|insert|books_name/i);
        const renamed = await api.send('PATCH', '/books/1', { name: 'Dune' });
        expect(renamed.status).toBe(200);
        const other = await api.send('POST', '/books', { name: 'Emma', author: 'Austen' });
        expect((await api.send('PATCH', `/books/${other.body.book.id}`, { name: 'Dune' })).status).toBe(422);
      } finally {
        await api.close();
      }
    });

    it('runs an action in a transaction through the context: a failing hook undoes the write', async () => {
      const { store } = database.open();
      const resource = bookResource({
        hooks: {
          around: { all: (ctx, next) => ctx.transaction(next) },
          after: {
            create: (ctx) => {
              if (ctx.record?.name === 'undo') throw new ConflictError('Refused after the write');
            },
            destroy: (ctx) => {
              if (ctx.record?.name === 'kept') throw new ConflictError('Refused after the delete');
            },
          },
        },
      });
      const api = await serve(store, resource);
      try {
        expect((await api.send('POST', '/books', { name: 'undo', author: 'x' })).status).toBe(409);
        expect((await api.send('GET', '/books')).body).toEqual({ books: [] });
        const kept = await api.send('POST', '/books', { name: 'kept', author: 'x' });
        expect(kept.status).toBe(200);
        expect((await api.send('DELETE', `/books/${kept.body.book.id}`)).status).toBe(409);
        expect((await api.send('GET', `/books/${kept.body.book.id}`)).body).toEqual(kept.body);
      } finally {
        await api.close();
      }
    });

    it('creates missing tables, keeps existing data, and never alters an existing table', async () => {
      const { store, tablePrefix } = database.open();
      const api = await serve(store);
      try {
        await api.send('POST', '/books', { name: 'Dune', author: 'Herbert' });
        const schema = store.collection({
          name: 'books',
          attributes: [
            { name: 'id', type: 'integer', nullable: false },
            { name: 'name', type: 'string', nullable: false },
            { name: 'author', type: 'string', nullable: false },
          ],
          indexed: [],
        }).schema;
        await store.init([schema]); // again: nothing happens
        const grown = {
          ...schema,
          attributes: [...schema.attributes, { name: 'isbn', type: 'string' as const, nullable: true }],
        };
        await expect(store.init([grown])).rejects.toThrow(`Table "${tablePrefix}books" has no column for isbn`);
        expect((await api.send('GET', '/books')).body.books).toEqual([{ id: 1, name: 'Dune', author: 'Herbert' }]);
      } finally {
        await api.close();
      }
    });

    it('with createTables: false, refuses to start on a missing table', async () => {
      const { store, tablePrefix } = database.open({ createTables: false });
      const schema = {
        name: 'books',
        attributes: [{ name: 'id', type: 'integer' as const, nullable: false }],
        indexed: [],
      };
      store.collection(schema);
      try {
        await expect(store.init([schema])).rejects.toThrow(`Table "${tablePrefix}books" does not exist`);
      } finally {
        await store.close();
      }
    });
  });
}
