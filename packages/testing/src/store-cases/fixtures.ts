import type {
  Collection,
  CollectionSchema,
  Condition,
  Id,
  Order,
  Scalar,
  Store,
  StoredRecord,
} from '@resourcery/core/store';

/**
 * Where a case runs: the store under test and the case's fresh collections, in the order of
 * their schemas (`schema` and the case's first argument are the first of them).
 */
export interface CaseHome {
  readonly store: Store;
  readonly schema: CollectionSchema;
  readonly schemas: readonly CollectionSchema[];
  readonly collections: readonly Collection[];
  /**
   * Refreshes the statistics the store's estimates read (the suite's `analyze` option, given for
   * a store that estimates counts: PostgreSQL's `ANALYZE`); absent for a store whose counts are exact.
   */
  readonly analyze?: (schema: CollectionSchema) => Promise<void>;
  /**
   * Another store of the kind under test, made by the suite's factory with `options` (the change
   * log cases make one with a tiny retention); the case closes it. It may be the store under
   * test itself, when the factory makes no other: the case then does not close it.
   */
  readonly storeWith?: (options: StoreProviderOptions) => Promise<Store>;
}

/**
 * What a case may ask of a store the suite's factory makes besides the first one.
 *
 * @example
 * ```ts
 * storeConformanceSuite('sqlite', (options) => sqlStore('sqlite::memory:', { changes: { retentionMs: options?.changeRetentionMs } }));
 * ```
 */
export interface StoreProviderOptions {
  /** How long its change log keeps a change (`ChangeLog.retentionMs`). */
  readonly changeRetentionMs?: number;
}

/**
 * One named check of the Collection interface; receives a fresh, empty collection of the
 * store under test (and, for cases that need more, the store and every collection of the case).
 */
export type StoreCase = (collection: Collection, home: CaseHome) => Promise<void>;

/** Cases about one method or topic; each runs on its own empty collections. */
export interface StoreCaseGroup {
  readonly name: string;
  /**
   * The schemas of the collections each case gets, named with the case's unique `prefix`,
   * referenced collections before those referring to them (the order `Store.init` receives).
   * Default: one collection of {@link suiteSchema}.
   */
  readonly schemas?: (prefix: string) => readonly CollectionSchema[];
  readonly cases: Readonly<Record<string, StoreCase>>;
  /** An optional method of `Collection` the cases need: they are skipped on a store whose collections lack it. */
  readonly needs?: 'createMany';
  /** An optional method of `Store` the cases need: they are skipped on a store that lacks it. */
  readonly needsStore?: 'changes';
}

/** Declares a group of cases. */
export function storeGroup(name: string, cases: Record<string, StoreCase>): StoreCaseGroup {
  return { name, cases };
}

/**
 * The suite's collection: a book with one attribute of every type, the nullable ones covering
 * `null` handling. `name` has a maximum length (SQL stores size a VARCHAR by it) and `author`
 * has none (an unbounded TEXT), so both kinds of string column are exercised.
 *
 * @example
 * ```ts
 * const store = provider.collection(suiteSchema('books_1'));
 * ```
 */
export function suiteSchema(name: string): CollectionSchema {
  return {
    name,
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'name', type: 'string', nullable: false, maxLength: 500 },
      { name: 'author', type: 'string', nullable: false },
      { name: 'year', type: 'integer', nullable: true },
      { name: 'price', type: 'number', nullable: true },
      { name: 'available', type: 'boolean', nullable: true },
    ],
    indexed: ['name', 'author', 'year', 'price', 'available'],
  };
}

/** What the suite writes: `name` and `author` are required, the rest optional. */
export type BookValues = { name: string; author: string; year?: number | null; price?: number | null } & {
  available?: boolean | null;
};

/** Creates the books one after the other (so ids follow the list) and answers the stored records. */
export async function seed(store: Collection, books: readonly BookValues[]): Promise<StoredRecord[]> {
  const stored: StoredRecord[] = [];
  for (const book of books) stored.push(await store.create(book));
  return stored;
}

/** Books that differ in every attribute, with ties and nulls, for filter and order cases. */
export const library: readonly BookValues[] = [
  { name: 'Dune', author: 'Herbert', year: 1965, price: 9.99, available: true },
  { name: 'Emma', author: 'Austen', year: 1815, price: 4.5, available: false },
  { name: 'Persuasion', author: 'Austen', year: 1817, price: null, available: true },
  { name: 'Ubik', author: 'Dick', year: null, price: 7.25, available: null },
  { name: 'Valis', author: 'Dick', year: 1981, price: 7.25, available: false },
  { name: 'Children of Dune', author: 'Herbert', year: 1976, price: 12, available: true },
  { name: 'Sanditon', author: 'Austen', year: null, price: -1.5, available: null },
];

/** Every record matching `where` in `order` (id ascending by default), without paging. */
export async function list(
  store: Collection,
  order: readonly Order[] = [{ field: 'id', direction: 'asc' }],
  where: readonly Condition[] = [],
): Promise<StoredRecord[]> {
  return (await store.list({ where, order, limit: 1000, offset: 0, count: false })).records;
}

/** The ids of records, in their order. */
export function ids(records: readonly StoredRecord[]): Id[] {
  return records.map((record) => record.id);
}

/** `field IN (values)`. */
export function where(field: string, ...values: Condition['values']): Condition {
  return { field, values };
}

/** `field <operator> operand`, an operator of CONTRACT part 3 (`null` takes `true` or `false`). */
export function op(field: string, operator: NonNullable<Condition['op']>, operand: Scalar): Condition {
  return { field, op: operator, values: [operand] };
}

/** Sort keys from `'author', '-year', 'id'` shorthand. */
export function orderBy(...keys: string[]): Order[] {
  return keys.map((key) =>
    key.startsWith('-') ? { field: key.slice(1), direction: 'desc' } : { field: key, direction: 'asc' },
  );
}
