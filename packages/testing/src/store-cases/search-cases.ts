import { type Collection, type CollectionSchema, type Condition, searchWords } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, list, op, orderBy, type StoreCaseGroup, where } from './fixtures.js';

/**
 * A collection whose `title` and `body` are searchable (`body` nullable, with a long maximum
 * length), with an integer `rank` to filter and sort on; `uuid` gives it uuid ids.
 *
 * @example
 * ```ts
 * const schema = searchSchema('notes_1');
 * ```
 */
export function searchSchema(name: string, uuid = false): CollectionSchema {
  return {
    name,
    attributes: [
      { name: 'id', type: uuid ? 'uuid' : 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 200 },
      { name: 'body', type: 'string', nullable: true },
      { name: 'rank', type: 'integer', nullable: false },
    ],
    indexed: ['title', 'rank'],
    search: ['title', 'body'],
  };
}

/** The `q=` condition of the words of `q`, on `fields`. */
export function search(q: string, fields: readonly string[] = ['title', 'body']): Condition {
  return { field: fields[0] ?? 'id', values: [], search: { fields, words: [...new Set(searchWords(q))] } };
}

const NOTES = [
  { title: 'Login crash', body: 'Happens at start-up, every time', rank: 1 },
  { title: 'CRASHING on save', body: null, rank: 2 },
  { title: 'Straße names', body: 'ΣΊΣΥΦΟΣ and café', rank: 3 },
  { title: 'snake_case_names', body: 'e-mail: someone@example.org; x²', rank: 1 },
  { title: '東京 office', body: 'ᏣᎳᎩ text and ǅemal', rank: 2 },
  { title: 'Cafe without accent', body: 'cafe\u0301 with a separate accent', rank: 3 },
  { title: 'İstanbul', body: 'ı i İ', rank: 1 },
] as const;

async function seedNotes(store: Collection): Promise<Collection> {
  for (const note of NOTES) await store.create({ ...note });
  return store;
}

/** The positions in {@link NOTES} (from 1, ascending) of the notes matching `q` (and more conditions). */
async function found(store: Collection, q: string, ...more: Condition[]): Promise<number[]> {
  const records = await list(store, orderBy('id'), [search(q), ...more]);
  const positions = records.map((record) => NOTES.findIndex((note) => note.title === record.title) + 1);
  return positions.sort((a, b) => a - b);
}

/** How each case prepares its store: the notes of {@link NOTES}. */
function notesGroup(name: string, uuid: boolean, cases: StoreCaseGroup['cases']): StoreCaseGroup {
  return { name, schemas: (prefix) => [searchSchema(prefix, uuid)], cases };
}

const cases: StoreCaseGroup['cases'] = {
  'every word must begin a word of one of the fields, in any of them': async (store) => {
    await seedNotes(store);
    expect(await found(store, 'crash')).toEqual([1, 2]);
    expect(await found(store, 'cras log')).toEqual([1]);
    expect(await found(store, 'login every')).toEqual([1]); // one in the title, one in the body
    expect(await found(store, 'rash')).toEqual([]); // inside a word is no match
    expect(await found(store, 'login nothing')).toEqual([]);
    expect(await found(store, 'start up')).toEqual([1]);
  },
  'case folds by Unicode case folding, accents count': async (store) => {
    await seedNotes(store);
    expect(await found(store, 'LOGIN')).toEqual([1]);
    expect(await found(store, 'STRASSE')).toEqual([]); // simple folding: ß is not ss
    expect(await found(store, 'STRAẞE')).toEqual([3]);
    expect(await found(store, 'σίσυφος')).toEqual([3]); // final sigma folds to σ
    expect(await found(store, 'Café')).toEqual([3, 6]); // composed or with a separate accent
    expect(await found(store, 'cafe')).toEqual([6]);
    expect(await found(store, 'ꮳꮃꭹ')).toEqual([5]); // Cherokee small letters fold to the capitals
    expect(await found(store, 'ǆemal')).toEqual([5]);
    expect(await found(store, 'i')).toEqual([7]); // İ does not fold to i; the body's own i does
    expect(await found(store, 'istanbul')).toEqual([]);
    expect(await found(store, 'İst')).toEqual([7]);
  },
  'punctuation and `_` separate words; letters of any script and digits are words': async (store) => {
    await seedNotes(store);
    expect(await found(store, 'case')).toEqual([4]);
    expect(await found(store, 'snake_case')).toEqual([4]);
    expect(await found(store, 'example org')).toEqual([4]);
    expect(await found(store, 'x²')).toEqual([4]);
    expect(await found(store, '東')).toEqual([5]);
    expect(await found(store, '京')).toEqual([]); // one word: 東京
  },
  'a null field has no words; a record matches through its other field': async (store) => {
    await seedNotes(store);
    expect(await found(store, 'save')).toEqual([2]);
    expect(await found(store, 'save happens')).toEqual([]);
  },
  'searches only the fields named (a field hidden from the caller is left out)': async (store) => {
    await seedNotes(store);
    expect(ids(await list(store, orderBy('id'), [search('happens', ['title'])]))).toEqual([]);
    const only = await list(store, orderBy('id'), [search('happens', ['body'])]);
    expect(only.map((note) => note.title)).toEqual(['Login crash']);
    expect(await list(store, orderBy('id'), [search('crash', [])])).toEqual([]);
  },
  'combines with other conditions, pages and counts': async (store) => {
    await seedNotes(store);
    expect(await found(store, 'names', where('rank', 1))).toEqual([4]);
    expect(await found(store, 'c', op('rank', 'gte', 2))).toEqual([2, 3, 6]);
    const query = { where: [search('c')], order: orderBy('-rank', 'id'), limit: 2, count: true };
    const first = await store.list({ ...query, offset: 0 });
    const second = await store.list({ ...query, offset: 2 });
    expect(first.total).toBe(5);
    expect(second.total).toBe(5);
    const all = await list(store, orderBy('-rank', 'id'), [search('c')]);
    expect([...first.records, ...second.records]).toEqual(all.slice(0, 4));
    const last = all[1];
    const after = await store.list({ ...query, offset: 0, after: [last?.rank as number, last?.id as number] });
    expect(after.records).toEqual(all.slice(2, 4));
  },
  'follows every write: update of one field, of the other, to null, and destroy': async (store) => {
    const note = await store.create({ title: 'First words', body: 'hidden treasure', rank: 1 });
    expect(ids(await list(store, undefined, [search('treasure')]))).toEqual([note.id]);
    await store.update(note.id, { title: 'Second title' }, []);
    expect(ids(await list(store, undefined, [search('first')]))).toEqual([]);
    expect(ids(await list(store, undefined, [search('second treasure')]))).toEqual([note.id]);
    await store.update(note.id, { body: null }, []);
    expect(ids(await list(store, undefined, [search('treasure')]))).toEqual([]);
    await store.update(note.id, { rank: 4 }, []); // a write of other fields keeps the words
    expect(ids(await list(store, undefined, [search('second')]))).toEqual([note.id]);
    await store.destroy(note.id, []);
    expect(ids(await list(store, undefined, [search('second')]))).toEqual([]);
  },
  'follows writes made in a store transaction, and forgets those rolled back': async (store, home) => {
    const schema = home.schema;
    await home.store.transaction(async (tx) => {
      await tx.collection(schema).create({ title: 'Committed words', body: null, rank: 1 });
    });
    await home.store
      .transaction(async (tx) => {
        await tx.collection(schema).create({ title: 'Rolled back', body: null, rank: 1 });
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect((await list(store, undefined, [search('committed')])).map((note) => note.title)).toEqual([
      'Committed words',
    ]);
    expect(await list(store, undefined, [search('rolled')])).toEqual([]);
  },
  'a long word is searched by its first 100 characters': async (store) => {
    const long = `${'Ab'.repeat(60)}Z`;
    const note = await store.create({ title: 'long', body: `x ${long} y`, rank: 1 });
    expect(ids(await list(store, undefined, [search('ab'.repeat(50))]))).toEqual([note.id]);
    expect(ids(await list(store, undefined, [search(`${'ab'.repeat(49)}ax`)]))).toEqual([]);
  },
};

/** `q=` search (a `search` condition) on a collection with integer ids. */
export const searchCases = notesGroup('search', false, cases);

/** The same on a collection with uuid ids (which some stores index otherwise). */
export const uuidSearchCases = notesGroup('search (uuid ids)', true, {
  'every word must begin a word of one of the fields, in any of them': cases[
    'every word must begin a word of one of the fields, in any of them'
  ] as StoreCaseGroup['cases'][string],
  'case folds by Unicode case folding, accents count': cases[
    'case folds by Unicode case folding, accents count'
  ] as StoreCaseGroup['cases'][string],
  'follows every write: update of one field, of the other, to null, and destroy': cases[
    'follows every write: update of one field, of the other, to null, and destroy'
  ] as StoreCaseGroup['cases'][string],
});
