// Read replicas on a real streaming replica of the test PostgreSQL (.ci/replica.sh, port 5433).
// To tell which server answered, the replica's replay is paused: it keeps the data it had, and a
// record written since is only on the primary. Reads outside a transaction come from the replica;
// writes, reads in transactions and a write action's own reads (over HTTP) from the primary. A
// replica that is stopped while requests run costs no request. One file: its tests pause and stop
// the replica, so they must not run at the same time as each other.
import 'reflect-metadata';
import { belongsTo, defineResource } from '@resourcery/core';
import type { CollectionSchema } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { type SqlStoreOptions, sqlStore } from '@resourcery/sql';
import { bookResource, serveHttp } from '@resourcery/testing';
import { IsInt, IsString, Length } from 'class-validator';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';
import { caughtUp, directConnections, replayPaused, replicaCluster, replicaReady } from './helpers/replica.js';

const SCHEMA: CollectionSchema = {
  name: 'items',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false },
    { name: 'n', type: 'integer', nullable: false },
  ],
  indexed: [],
};
const ALL = { where: [], order: [{ field: 'id', direction: 'asc' as const }], limit: 100, offset: 0, count: true };
const names = (records: readonly Record<string, unknown>[]) => records.map((record) => record.name);

/** A store on the primary with the replica, on tables of its own (dropped on close). */
function replicated(prefix: string, replicas: Exclude<SqlStoreOptions['replicas'], readonly string[] | undefined>) {
  return droppingTables(sqlStore(SERVERS.postgres.url, { tablePrefix: prefix, replicas }), prefix);
}

class Author {
  @IsString()
  @Length(1, 100)
  name!: string;
}

class Novel {
  @IsString()
  @Length(1, 100)
  title!: string;

  @IsInt()
  authorId!: number;
}

describe('read replicas: a streaming replica of PostgreSQL', () => {
  if (!serverAvailable('postgres') || !serverAvailable('replica')) return;
  const direct = directConnections();
  afterAll(async () => {
    await direct.primary.close();
    await direct.replica.close();
  });

  describe('on the store', () => {
    const prefix = `rp${Math.random().toString(36).slice(2, 8)}_`;
    // Reads on the replica however far behind (its replay is paused here), writes' reads not followed.
    const store = replicated(prefix, {
      urls: [SERVERS.replica.url],
      maxLagMs: 600_000,
      checkIntervalMs: 100,
      readYourWrites: 'request',
    });
    const items = store.collection(SCHEMA);
    beforeAll(async () => {
      await store.init([SCHEMA]);
      await items.create({ name: 'before', n: 1 });
      await store.secret('first'); // its table, on the replica too
      await caughtUp(direct.primary.db, direct.replica.db);
      await replicaReady(store, () => items.list(ALL));
    });
    afterAll(() => store.close());

    it('reads outside a transaction from the replica; writes, transactions and primary() from the primary', async () => {
      const served = store.replicaStatus()[0]?.reads ?? 0;
      await replayPaused(direct.replica.db, async () => {
        const written = await items.create({ name: 'after', n: 2 }); // a write: on the primary, answered from there
        expect(written).toMatchObject({ name: 'after', n: 2 });
        // The paused replica does not have it: list, find and aggregate were served there.
        expect(names((await items.list(ALL)).records)).toEqual(['before']);
        expect((await items.list(ALL)).total).toBe(1);
        expect(await items.find(written.id, [])).toBeUndefined();
        const [row] =
          (await items.aggregate?.({ where: [], group: [], sum: ['n'], min: [], max: [], limit: 10 })) ?? [];
        expect(row).toMatchObject({ count: 1, sum: [1] });
        // An update is a write: on the primary, which has the record.
        expect(await items.update(written.id, { n: 3 }, [])).toMatchObject({ name: 'after', n: 3 });
        // Reads in a transaction, and through primary(), are on the primary.
        const inTransaction = await store.transaction(async (tx) => tx.collection(SCHEMA).list(ALL));
        expect(names(inTransaction.records)).toEqual(['before', 'after']);
        const primary = items.primary?.();
        expect(primary).toBeDefined();
        expect(await primary?.find(written.id, [])).toMatchObject({ name: 'after', n: 3 });
        expect(names((await items.transaction((tx) => tx.list(ALL))).records)).toEqual(['before', 'after']);
        // A secret is made and read back on the primary.
        const secret = await store.secret('replicated');
        expect(secret).toHaveLength(43);
        expect(await store.secret('replicated')).toBe(secret);
      });
      expect((store.replicaStatus()[0]?.reads ?? 0) - served).toBeGreaterThanOrEqual(4);
      // Replaying again, the replica catches up.
      await caughtUp(direct.primary.db, direct.replica.db);
      expect(names((await items.list(ALL)).records)).toEqual(['before', 'after']);
    });

    it('with readYourWrites "process", reads after the store wrote go to the primary until the replica replayed it', async () => {
      const own = replicated(`${prefix}p_`, { urls: [SERVERS.replica.url], maxLagMs: 600_000, checkIntervalMs: 100 });
      try {
        const mine = own.collection(SCHEMA);
        await own.init([SCHEMA]);
        await caughtUp(direct.primary.db, direct.replica.db);
        await new Promise((resolve) => setTimeout(resolve, 150)); // a check begun after the tables were made
        await replicaReady(own, () => mine.list(ALL));
        await replayPaused(direct.replica.db, async () => {
          const written = await mine.create({ name: 'mine', n: 1 });
          // The replica lacks it, and the store knows it has not replayed its write: the primary answers.
          expect(await mine.find(written.id, [])).toMatchObject({ name: 'mine' });
          expect(names((await mine.list(ALL)).records)).toEqual(['mine']);
          // The replica does lack it.
          const onReplica = await direct.replica.db.selectFrom(`${prefix}p_items`).select('name').execute();
          expect(onReplica).toEqual([]);
        });
        expect(own.replicaStatus()[0]?.state).toBe('ready');
      } finally {
        await own.close();
      }
    });
  });

  describe('over HTTP: a request that wrote reads its own writes', () => {
    const prefix = `rh${Math.random().toString(36).slice(2, 8)}_`;
    const authors = defineResource({ name: 'author', model: Author });
    const novels = defineResource({
      name: 'novel',
      model: Novel,
      relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
      hooks: {
        after: {
          // A hook's read through ctx: its author, in a header.
          create: async (ctx) => {
            const author = await ctx.collectionOf(authors).find(ctx.record?.authorId ?? 0, []);
            ctx.headers['X-Author'] = author?.name ?? 'none';
          },
        },
      },
    });
    const store = replicated(prefix, {
      urls: [SERVERS.replica.url],
      maxLagMs: 600_000,
      checkIntervalMs: 100,
      readYourWrites: 'request',
    });
    const api = resourcery({ resources: [authors, novels], store });
    let base = '';
    let close = async () => {};
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = response.status === 204 ? undefined : await response.json();
      return { status: response.status, author: response.headers.get('x-author'), body: answer };
    };
    beforeAll(async () => {
      const target = await serveHttp(express().use('/api', api));
      base = target.baseUrl;
      close = target.close;
      await api.api.ready();
      expect((await send('POST', '/authors', { name: 'Le Guin' })).status).toBe(200);
      await caughtUp(direct.primary.db, direct.replica.db);
      await replicaReady(store, () => send('GET', '/authors'));
    });
    afterAll(async () => {
      await close();
      await api.api.close();
    });

    it("a create's hook reads the primary, a destroy finds its record there; a show reads the replica", async () => {
      await replayPaused(direct.replica.db, async () => {
        const author = await send('POST', '/authors', { name: 'Butler' });
        expect(author.status).toBe(200);
        const id = author.body.author.id;
        // The replica does not have the author yet: a show, outside a write, reads it there.
        expect((await send('GET', `/authors/${id}`)).status).toBe(404);
        // The create's after hook reads the author through ctx, on the primary: it exists there.
        const novel = await send('POST', '/novels', { title: 'Kindred', authorId: id });
        expect(novel.status).toBe(200);
        expect(novel.author).toBe('Butler');
        const path = `/novels/${novel.body.novel.id}`;
        expect((await send('GET', path)).status).toBe(404);
        // An update and a destroy of the record only the primary has.
        const updated = await send('PATCH', path, { title: 'Kindred (1979)', authorId: id });
        expect(updated.status).toBe(200);
        expect(updated.body.novel).toMatchObject({ title: 'Kindred (1979)', authorId: id });
        expect((await send('DELETE', path)).status).toBe(204);
      });
    });
  });

  describe('when a replica is down', () => {
    it('reads go to the primary: one that refuses connections is skipped', async () => {
      const prefix = `rd${Math.random().toString(36).slice(2, 8)}_`;
      const nowhere = 'postgres://postgres@127.0.0.1:1/test'; // nothing listens on port 1
      const store = replicated(prefix, { urls: [nowhere], checkIntervalMs: 100, readYourWrites: 'request' });
      try {
        const items = store.collection(SCHEMA);
        await store.init([SCHEMA]);
        await items.create({ name: 'one', n: 1 });
        for (let round = 0; round < 5; round++) expect(names((await items.list(ALL)).records)).toEqual(['one']);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(names((await items.list(ALL)).records)).toEqual(['one']);
        expect(store.replicaStatus()).toEqual([expect.objectContaining({ state: 'down', reads: 0 })]);
      } finally {
        await store.close();
      }
    });

    it('is stopped while requests run over HTTP: every request succeeds, its reads fall back to the primary', async () => {
      const prefix = `rk${Math.random().toString(36).slice(2, 8)}_`;
      const store = replicated(prefix, {
        urls: [SERVERS.replica.url],
        checkIntervalMs: 100,
        readYourWrites: 'request',
      });
      const api = resourcery({ resources: [bookResource()], store });
      const target = await serveHttp(express().use('/api', api));
      const send = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${target.baseUrl}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        await response.arrayBuffer();
        return response.status;
      };
      let stopped = false;
      try {
        for (let n = 0; n < 20; n++) expect(await send('POST', '/books', { name: `b${n}`, author: 'a' })).toBe(200);
        await caughtUp(direct.primary.db, direct.replica.db);
        const books = () => send('GET', '/books');
        await replicaReady(store, books);
        const statuses: number[] = [];
        let running = true;
        /** One client: index pages, shows and creates, one after the other, until told to stop. */
        const client = async (which: number) => {
          for (let n = 0; running; n++) {
            const path = n % 3 === 0 ? `/books?page[size]=5&sort=-id` : `/books/${1 + ((n + which) % 20)}`;
            statuses.push(await send('GET', path));
            if (n % 10 === 0) statuses.push(await send('POST', '/books', { name: `c${which}-${n}`, author: 'a' }));
          }
        };
        const clients = Promise.all([0, 1, 2, 3].map(client));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const before = store.replicaStatus()[0]?.reads ?? 0;
        stopped = true;
        await replicaCluster('stop'); // a fast shutdown: its sessions are terminated, then it refuses connections
        await new Promise((resolve) => setTimeout(resolve, 1500));
        running = false;
        await clients;
        expect(before).toBeGreaterThan(0); // the replica served reads before it stopped
        expect(statuses.length).toBeGreaterThan(50);
        expect(statuses.filter((status) => status !== 200)).toEqual([]);
        expect(store.replicaStatus()[0]?.state).toBe('down');
        // Started again, it serves reads again.
        await replicaCluster('start');
        stopped = false;
        const served = store.replicaStatus()[0]?.reads ?? 0;
        await replicaReady(store, books);
        for (let n = 0; n < 5; n++) expect(await send('GET', '/books/1')).toBe(200);
        expect(store.replicaStatus()[0]?.reads ?? 0).toBeGreaterThan(served);
      } finally {
        if (stopped) await replicaCluster('start');
        await target.close();
        await api.api.close();
      }
    }, 120_000);

    it('are refused on MySQL, MariaDB and SQLite, whose replicas the store cannot measure', () => {
      expect(() => sqlStore(SERVERS.mariadb.url, { replicas: [SERVERS.mariadb.url] })).toThrow(
        /read replicas are for PostgreSQL only \(this store is mysql\)/,
      );
      expect(() => sqlStore('sqlite::memory:', { replicas: ['sqlite::memory:'] })).toThrow(/PostgreSQL only/);
      expect(() => sqlStore(SERVERS.postgres.url, { replicas: [SERVERS.mariadb.url] })).toThrow(
        /a read replica must be a postgres:\/\/ URL/,
      );
    });
  });
});
