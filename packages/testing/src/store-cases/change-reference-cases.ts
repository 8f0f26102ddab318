import type { Change, Collection } from '@resourcery/core/store';
import { expect } from 'vitest';
import { changesSince, kindsAndIds, logOf } from './change-cases.js';
import type { StoreCaseGroup } from './fixtures.js';
import { idSetSchemas } from './id-set-cases.js';
import { all, LIBRARY, type LibraryName, libraryGroup, librarySchemas } from './library.js';
import { R1, R2, R3, seedTree } from './reference-cases.js';

// The changes a destroy makes through foreign keys: the records of live collections that its
// `cascade` keys destroy and its `nullify` keys change are logged too, in the same transaction.

/** Every collection of the library live but `authors`. */
function liveLibrary(prefix: string) {
  const schemas = librarySchemas(prefix);
  return LIBRARY.map((name) => (name === 'authors' ? schemas[name] : { ...schemas[name], live: true }));
}

const group = libraryGroup('change log: destroy referenced', {
  'cascade and nullify are logged for live referring collections, before as find answered': async (db) => {
    await seedTree(db);
    const log = logOf(db.store);
    const names = (list: readonly LibraryName[]) => list.map((name) => db.schemas[name].name);
    const before = {
      book: await db.books.find(1, []),
      reviews: await Promise.all([R1, R2].map((id) => db.reviews.find(id, []))),
      votes: await Promise.all([1, 2, 3].map((id) => db.votes.find(id, []))),
      award: await db.awards.find(1, []),
    };
    const start = await log.head();
    expect(await db.books.destroy(1, [])).toBe(true);
    const changes = await changesSince(log, start, names(['books', 'reviews', 'votes', 'awards']));
    const of = (name: LibraryName) => changes.filter((change) => change.collection === db.schemas[name].name);
    expect(kindsAndIds(of('books'))).toEqual([['destroyed', 1]]);
    expect(of('books')[0]?.before).toStrictEqual(before.book);
    const sorted = (list: Change[]) => [...list].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(sorted(of('reviews')).map((change) => [change.kind, change.before, change.after])).toStrictEqual(
      before.reviews.map((review) => ['destroyed', review, null]),
    );
    expect(sorted(of('votes')).map((change) => [change.kind, change.before, change.after])).toStrictEqual(
      before.votes.map((vote) => ['destroyed', vote, null]),
    );
    expect(of('awards').map((change) => [change.kind, change.before, change.after])).toStrictEqual([
      ['updated', before.award, await db.awards.find(1, [])],
    ]);
    // The review of the other book, its vote and its award are untouched.
    expect(changes.some((change) => change.id === R3)).toBe(false);
    expect(changes).toHaveLength(7);
    const seqs = changes.map((change) => change.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  },

  'a destroy refused by a restrict, or rolled back, logs nothing': async (db) => {
    await seedTree(db);
    const log = logOf(db.store);
    await db.awards.create({ name: 'Critics', reviewId: R2 });
    const start = await log.head();
    await expect(db.books.destroy(1, [])).rejects.toMatchObject({ kind: 'referenced' });
    const failure = new Error('undo');
    await expect(
      db.store.transaction(async (tx) => {
        await tx.collection(db.schemas.books).destroy(2, []);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const names = LIBRARY.map((name) => db.schemas[name].name);
    expect(await changesSince(log, start, names)).toEqual([]);
    expect(await all(db.books)).toHaveLength(2);
  },
});

export const changeReferenceCases: StoreCaseGroup = { ...group, schemas: liveLibrary, needsStore: 'changes' };

/**
 * Posts (live) holding `tagIds` through their join collection: their sets are logged as `find`
 * answers them, and a destroyed tag logs each post that held it, its set without the tag.
 */
export const changeSetCases: StoreCaseGroup = {
  name: 'change log: sets of ids',
  needsStore: 'changes',
  schemas: (prefix) => {
    const [tags, posts, join] = idSetSchemas(prefix);
    return [tags, { ...posts, live: true }, join];
  },
  cases: {
    'sets of ids are logged, and a destroyed record logs the live records whose set held it': async (tags, home) => {
      const posts = home.collections[1] as Collection;
      const name = home.schemas[1]?.name as string;
      const log = logOf(home.store);
      const [a, b] = [await tags.create({ name: 'a' }), await tags.create({ name: 'b' })];
      const start = await log.head();
      const post = await posts.create({ title: 'Hello', tagIds: [b.id, a.id] } as never);
      const other = await posts.create({ title: 'Other', tagIds: [b.id] } as never);
      const held = await posts.find(post.id, []);
      expect(held?.tagIds).toEqual([a.id, b.id]);
      await posts.update(post.id, { title: 'Hello again' }, []);
      const updated = await posts.find(post.id, []);
      expect(await tags.destroy(a.id, [])).toBe(true);
      const changes = await changesSince(log, start, [name]);
      expect(changes.map((change) => [change.kind, change.id, change.before, change.after])).toStrictEqual([
        ['created', post.id, null, held],
        ['created', other.id, null, await posts.find(other.id, [])],
        ['updated', post.id, held, updated],
        ['updated', post.id, updated, await posts.find(post.id, [])],
      ]);
    },
  },
};
