// Retries seen over HTTP: a bulk PATCH that loses a deadlock runs again and answers 200, the retry
// logged with the request's id and counted on its span; one whose hook did something outside the
// database answers 503 with Retry-After, as does an action an around hook runs in
// `ctx.transaction(next)` (the rest of the action cannot run twice). PostgreSQL and MariaDB.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '@resourcery/core';
import type { Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { sqlStore } from '@resourcery/sql';
import { type BookResourceOptions, bookResource, serveHttp } from '@resourcery/testing';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { blockedOn, competitor, quote } from './helpers/conflicts.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

interface Line {
  readonly level: string;
  readonly fields: Record<string, unknown>;
  readonly message?: string;
}

for (const name of ['postgres', 'mariadb'] as const) {
  describe(`${SERVERS[name].label}: retries over HTTP`, () => {
    if (!serverAvailable(name)) return;

    /**
     * The books API (bulk writes) on fresh tables, with a logger and a tracer, six books, and
     * a competitor holding some of them: `other.run` closes the cycle when the request waits.
     */
    async function serve(options: BookResourceOptions = {}, wrap = (store: Store) => store) {
      const prefix = `rh${Math.random().toString(36).slice(2, 8)}_`;
      const store = droppingTables(sqlStore(SERVERS[name].url, { tablePrefix: prefix }), prefix);
      const lines: Line[] = [];
      const log = (level: string) => (fields: object, message?: string) =>
        lines.push({ level, fields: fields as Record<string, unknown>, message });
      const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };
      const exporter = new InMemorySpanExporter();
      const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const resource = bookResource({ bulk: true, ...options });
      const api = resourcery({ resources: [resource], store: wrap(store), logger, tracing, logError: () => {} });
      const target = await serveHttp(express().use('/api', api));
      const send = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${target.baseUrl}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, headers: response.headers, body: await response.json() };
      };
      const ids: number[] = [];
      for (const n of [1, 2, 3, 4, 5, 6])
        ids.push((await send('POST', '/books', { name: `b${n}`, author: 'a' })).body.book.id);
      const [other, watcher] = await Promise.all([competitor(name), competitor(name)]);
      const table = quote(name, `${prefix}books`);
      /** The competitor begins, changes four books the request does not touch (so that MariaDB finds it the heavier), then `held`. */
      const hold = async (held: number) => {
        await other.run('BEGIN');
        // One by one: an UPDATE … WHERE id IN (…) may scan the table, and lock every row it reads.
        for (const id of ids.slice(2)) await other.run(`UPDATE ${table} SET author = 'heavy' WHERE id = ${id}`);
        await other.run(`UPDATE ${table} SET author = 'theirs' WHERE id = ${held}`);
      };
      /** Once the request waits for a book the competitor holds, the competitor asks for `wanted` (a deadlock), then commits. */
      const closeCycle = async (wanted: number) => {
        await blockedOn(name, watcher, `${prefix}books`);
        await other.run(`UPDATE ${table} SET author = 'theirs' WHERE id = ${wanted}`);
        await other.run('COMMIT');
      };
      /** A bulk PATCH of the first two books that writes the first, then loses a deadlock on the second. */
      const deadlockedPatch = async () => {
        const [one, two] = ids as [number, number];
        await hold(two);
        const patched = send('PATCH', '/books', {
          books: [
            { id: one, name: 'first' },
            { id: two, name: 'second' },
          ],
        });
        await closeCycle(one);
        return patched;
      };
      const close = async () => {
        await Promise.all([other.close(), watcher.close()]);
        await target.close().finally(() => store.close());
      };
      return { send, lines, exporter, ids, hold, closeCycle, deadlockedPatch, close };
    }

    const warnings = (lines: readonly Line[]) => lines.filter((line) => line.level === 'warn');

    it('a bulk PATCH that loses a deadlock runs again and answers 200: the retry is logged and on the span', async () => {
      const api = await serve();
      const [one, two] = api.ids as [number, number];
      try {
        const answer = await api.deadlockedPatch();
        expect(answer.status).toBe(200);
        expect(answer.body.books).toMatchObject([
          { id: one, name: 'first', author: 'theirs' },
          { id: two, name: 'second', author: 'theirs' },
        ]);
        const requestId = answer.headers.get('x-request-id');
        const [retry, ...more] = warnings(api.lines);
        expect(more).toEqual([]);
        expect(retry?.fields).toMatchObject({ requestId, action: 'update', scope: 'transaction', attempt: 2 });
        expect(api.lines.at(-1)?.fields).toMatchObject({ requestId, status: 200, retries: 1 });
        const span = api.exporter.getFinishedSpans().find((each) => each.name === 'book.update');
        expect(span?.attributes['resourcery.retries']).toBe(1);
        expect(span?.events.map((event) => event.name)).toEqual(['resourcery.retry']);
      } finally {
        await api.close();
      }
    }, 20_000);

    /** A store wrapper that forwards neither the options of `transaction` nor `tx.sideEffect`. */
    const forgetful = (store: Store): Store => ({
      collection: (schema) => store.collection(schema),
      transaction: (work) =>
        store.transaction((tx) => work({ collection: (schema) => tx.collection(schema), transaction: tx.transaction })),
      init: (schemas) => store.init?.(schemas) ?? Promise.resolve(),
      close: () => store.close?.() ?? Promise.resolve(),
      secret: (secret) => (store.secret as NonNullable<Store['secret']>).call(store, secret),
    });

    for (const [label, wrap] of [
      ['', undefined],
      [', also through a store wrapper that loses tx.sideEffect', forgetful],
    ] as const) {
      it(`a bulk PATCH whose hook called ctx.sideEffect() is not run again${label}: 503 with Retry-After, the hook ran once`, async () => {
        let mails = 0;
        const hooks: BookResourceOptions['hooks'] = {
          after: {
            update: (ctx) => {
              ctx.sideEffect(); // it sends a mail: never twice
              mails += 1;
            },
          },
        };
        const api = await serve({ hooks }, wrap);
        const [one] = api.ids as [number];
        try {
          const answer = await api.deadlockedPatch();
          expect(answer.status).toBe(503);
          expect(answer.headers.get('retry-after')).toBe('1');
          expect(mails).toBe(1); // the first record's, before the batch lost the deadlock on the second
          expect(await api.send('GET', `/books/${one}`, undefined)).toMatchObject({ body: { book: { name: 'b1' } } });
        } finally {
          await api.close();
        }
      }, 20_000);
    }

    it('an action an around hook runs in ctx.transaction(next) is not run again (next cannot run twice): 503', async () => {
      const api = await serve({
        hooks: {
          around: {
            update: (ctx, next) =>
              ctx.transaction(async () => {
                await ctx.collection.update(api.ids[1] as number, { name: 'touched' }, []);
                return next();
              }),
          },
        },
      });
      const [one, two] = api.ids as [number, number];
      try {
        await api.hold(one); // the hook writes `two`, then the action waits for `one`
        const patched = api.send('PATCH', `/books/${one}`, { book: { name: 'first' } });
        await api.closeCycle(two);
        const answer = await patched;
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(warnings(api.lines)).toEqual([]);
      } finally {
        await api.close();
      }
    }, 20_000);
  });
}
