// A page filtered through a join table is read by walking the list's order first, at most
// WALK_ROWS records (walk-page.ts), then by the usual statement when the walk's records hold too
// few matches (after going on once from its last match). Each way must answer what the memory store answers: labels whose posts are all
// within the walk, all past it, or some of each, in every order, with and without a count, on
// later pages and after a cursor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import {
  type Collection,
  type CollectionSchema,
  type ListQuery,
  type Scalar,
  type Store,
} from '@resourcery/core/store';
import type { SqlStoreProvider } from '@resourcery/sql';
import { idSetSchemas } from '@resourcery/testing/suites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_ROWS } from '../src/query/walk-page.js';
import { onCapturingStore } from './helpers/capturing-db.js';
import { serverAvailable, testDatabases } from './helpers/databases.js';

const [tags, titled, postTags] = idSetSchemas('walk');
/** The suite's posts with `rank`, nullable and repeated, to order the pages by. */
const posts: CollectionSchema = {
  ...titled,
  attributes: [...titled.attributes, { name: 'rank', type: 'integer', nullable: true }],
  indexed: ['rank'],
};

const POSTS = WALK_ROWS + 300;
// Tag 1 on every 7th post (a full page within any walk); 2 on the 30 oldest only (past the walk
// of the newest); 3 on 10 of the newest and 10 of the oldest (a short page in the walk, the rest
// past it); 4 on 5 of the newest (every match in the walk); 5 on none; 6 on every 100th (about 20
// in a walk: a page of 25 is the walk's and the rest of the order's, read by a walk going on from
// its last match); 7 on all but every 50th (more join rows than a walk reads records: PostgreSQL
// tests each record with a correlated subquery, the others with a hash of the tag's join rows).
// `rank` repeats, so that orders by it tie and end on `id`.
const TAG_NAMES = ['every seventh', 'oldest', 'both ends', 'newest', 'none', 'every hundredth', 'most'];
function tagsOf(n: number): number[] {
  const ids: number[] = [];
  if (n % 7 === 0) ids.push(1);
  if (n <= 30) ids.push(2);
  if (n <= 10 || n > POSTS - 10) ids.push(3);
  if (n > POSTS - 5) ids.push(4);
  if (n % 100 === 0) ids.push(6);
  if (n % 50 !== 0) ids.push(7);
  return ids;
}
const rankOf = (n: number) => (n % 11 === 0 ? null : n % 97);

const folder = mkdtempSync(join(tmpdir(), 'resourcery-walk-page-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A list's records and total (an estimate is not made below its threshold of 10,000). */
async function answer(collection: Collection, query: ListQuery) {
  const { records, total, estimated } = await collection.list(query);
  return { records, total, estimated };
}

function tagged(name: string): ListQuery['where'] {
  const where = [{ field: 'name', values: [name] }];
  const through = { field: 'tagId', values: [], related: { collection: tags.name, where } };
  return [{ field: 'id', values: [], related: { collection: postTags.name, key: 'postId', where: [through] } }];
}

/** The tags and the posts, into `store`. */
async function seed(store: Store): Promise<void> {
  for (const schema of [tags, posts, postTags]) store.collection(schema);
  await store.init?.([tags, posts, postTags]);
  for (const name of TAG_NAMES) await store.collection(tags).create({ name });
  const values = Array.from({ length: POSTS }, (_, i) => ({
    title: `Post ${i + 1}`,
    rank: rankOf(i + 1),
    tagIds: tagsOf(i + 1),
  }));
  for (let start = 0; start < POSTS; start += 500) {
    await store.collection(posts).createMany?.(values.slice(start, start + 500) as never[]);
  }
}

for (const database of ['sqlite', 'postgres', 'mariadb'] as const) {
  if (database !== 'sqlite' && !serverAvailable(database)) continue;
  it(`${database}: a page of a tag within the walk is the walk's one statement, whether the tag has fewer join rows than the walk reads records or more`, () =>
    onCapturingStore(database, async ({ captured, store }) => {
      await seed(store);
      for (const name of ['every seventh', 'most']) {
        captured.length = 0;
        const query: ListQuery = {
          where: tagged(name),
          order: [{ field: 'id', direction: 'desc' }],
          limit: 25,
          offset: 0,
          count: true,
        };
        const { records, total } = await store.collection(posts).list(query);
        expect(records).toHaveLength(25);
        expect(total).toBe(name === 'most' ? POSTS - Math.floor(POSTS / 50) : Math.floor(POSTS / 7));
        expect(captured.map((statement) => statement.sql)).toHaveLength(1);
      }
    }));
}

for (const database of testDatabases(folder)) {
  describe(`${database.label}: a page filtered through a join table`, () => {
    let store: SqlStoreProvider;
    let sqlPosts: Collection;
    let memoryPosts: Collection;
    beforeAll(async () => {
      store = database.open().store;
      const memory = memoryStore();
      await seed(memory);
      await seed(store);
      memoryPosts = memory.collection(posts);
      sqlPosts = store.collection(posts);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    const orders: ListQuery['order'][] = [
      [{ field: 'id', direction: 'desc' }],
      [{ field: 'id', direction: 'asc' }],
      [
        { field: 'rank', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
    ];
    for (const name of TAG_NAMES) {
      it(`"${name}": the same pages, counts and cursors as the memory store`, async () => {
        for (const order of orders) {
          for (const count of [true, false, 'estimated'] as const) {
            for (const [limit, offset] of [
              [25, 0],
              [25, 25],
              [26, 0],
              [3, 6],
            ] as const) {
              const query: ListQuery = { where: tagged(name), order, limit, offset, count };
              const expected = await answer(memoryPosts, query);
              const label = JSON.stringify({ name, order, count, limit, offset });
              expect(await answer(sqlPosts, query), label).toStrictEqual(expected);
              const last = expected.records.at(-1);
              if (!last) continue;
              const after = order.map(({ field }) => (last[field] ?? null) as Scalar);
              const next = { ...query, offset: 0, after };
              expect(await answer(sqlPosts, next), `${label} after`).toStrictEqual(await answer(memoryPosts, next));
            }
          }
        }
      }, 60_000);
    }
  });
}
