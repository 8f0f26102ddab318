import type { CollectionSchema, Store } from '@resourcery/core/store';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { aggregateCases } from './store-cases/aggregate-cases.js';
import { changeCases } from './store-cases/change-cases.js';
import { changeReferenceCases, changeSetCases } from './store-cases/change-reference-cases.js';
import { foreignKeyCases, uniqueCases } from './store-cases/constraint-cases.js';
import { countCases } from './store-cases/count-cases.js';
import { createCases, idCases } from './store-cases/create-cases.js';
import { createManyCases } from './store-cases/create-many-cases.js';
import { createManySetCases } from './store-cases/create-many-set-cases.js';
import { filterCases, findOneCases } from './store-cases/find-cases.js';
import type { StoreCase, StoreCaseGroup, StoreProviderOptions } from './store-cases/fixtures.js';
import { suiteSchema } from './store-cases/fixtures.js';
import { idSetCases } from './store-cases/id-set-cases.js';
import { keysetCases, keysetTypeCases } from './store-cases/keyset-cases.js';
import { lifecycleCases } from './store-cases/lifecycle-cases.js';
import { operatorCases } from './store-cases/operator-cases.js';
import { orderCases } from './store-cases/order-cases.js';
import { perGroupCases } from './store-cases/per-group-cases.js';
import { referenceCases } from './store-cases/reference-cases.js';
import { searchCases, uuidSearchCases } from './store-cases/search-cases.js';
import { selectCases, selectTypeCases } from './store-cases/select-cases.js';
import { serverValueCases } from './store-cases/server-value-cases.js';
import { storeTransactionCases } from './store-cases/store-transaction-cases.js';
import { stringLengthCases } from './store-cases/string-length-cases.js';
import { transactionCases } from './store-cases/transaction-cases.js';
import { typeCases } from './store-cases/type-cases.js';
import { relationFilterCases, typedOperatorCases } from './store-cases/typed-operator-cases.js';
import { defaultCases, uuidCases } from './store-cases/uuid-cases.js';
import { valueListCases } from './store-cases/value-list-cases.js';
import { destroyCases, updateCases } from './store-cases/write-cases.js';

export {
  type CaseHome,
  type StoreCase,
  type StoreCaseGroup,
  type StoreProviderOptions,
  suiteSchema,
} from './store-cases/fixtures.js';
export { idSetSchemas } from './store-cases/id-set-cases.js';
export { type LibraryName, librarySchemas } from './store-cases/library.js';
export { searchSchema } from './store-cases/search-cases.js';

/**
 * Every group of the store suite, in the order they run; each case receives fresh, empty
 * collections: one of {@link suiteSchema}, or, for the relational groups (types, uuid ids,
 * defaults, unique, foreign keys, destroy referenced, store transaction, per group, and the
 * operators, relation filters, `after` and `select` on types), one of each of
 * {@link librarySchemas}. For running single cases outside Vitest's `describe`.
 *
 * @example
 * ```ts
 * const names = storeCaseGroups.flatMap((group) => Object.keys(group.cases).map((c) => `${group.name} > ${c}`));
 * ```
 */
export const storeCaseGroups: readonly StoreCaseGroup[] = [
  idCases,
  createCases,
  findOneCases,
  filterCases,
  orderCases,
  updateCases,
  destroyCases,
  transactionCases,
  lifecycleCases,
  stringLengthCases,
  typeCases,
  uuidCases,
  defaultCases,
  serverValueCases,
  uniqueCases,
  foreignKeyCases,
  valueListCases,
  referenceCases,
  storeTransactionCases,
  perGroupCases,
  operatorCases,
  typedOperatorCases,
  relationFilterCases,
  keysetCases,
  keysetTypeCases,
  selectCases,
  selectTypeCases,
  countCases,
  aggregateCases,
  searchCases,
  uuidSearchCases,
  idSetCases,
  createManyCases,
  createManySetCases,
  changeCases,
  changeReferenceCases,
  changeSetCases,
];

/** Options of {@link storeConformanceSuite}. */
export interface StoreSuiteOptions {
  /**
   * Cases to skip, each with the reason shown in the report. Keys are `'<group> > <case>'` (as
   * the report names them) or a bare case name. A key that names no case throws, so a renamed
   * case cannot silently run again.
   */
  readonly skip?: Readonly<Record<string, string>>;
  /**
   * Prefix of the collection names the suite creates, one fresh collection per case
   * (`<prefix>_<n>`). Default: `rs` plus a random suffix, so runs never meet each other's tables
   * in a database that keeps them.
   */
  readonly prefix?: string;
  /**
   * For a store that estimates counts (`count: 'estimated'`): refreshes the statistics its
   * estimates read, for one collection (PostgreSQL: `ANALYZE` of its table). The count cases then
   * expect a marked estimate past the threshold, within a factor of two; without it, exact counts.
   */
  readonly analyze?: (schema: CollectionSchema) => Promise<void>;
}

/**
 * Registers the shared store conformance suite with Vitest: every behaviour of the
 * {@link Collection} interface that the core and the HTTP contract rely on (ids, types, filters,
 * filter operators, relation filters, code point order, nulls, paging, keyset pages (`after`),
 * sparse lists (`select`), counts (exact, and estimated past a threshold), partial and concurrent updates, scopes, transactions, the longest
 * valid value of every string size) and of the data model (decimal, date, date-time, uuid and json values; uuid ids;
 * defaults; server values (uuid ids, timestamps and defaults set on every write path, raw store
 * transactions included); unique sets; foreign keys with restrict, cascade and nullify; store-wide and nested
 * transactions; per-group limits; listed values (`values`), raw transactions included), and bulk creates
 * (`createMany`: their cases are skipped on a store whose collections lack it), and the change log of live
 * collections (`store.changes()`: skipped on a store without one). Every case gets fresh collections, each obtained with
 * `provider.collection(schema)`, then prepared together with `provider.init(schemas)` (referenced
 * collections first); the provider is closed after the last case.
 *
 * @param name - Shown in the report: `store conformance: <name>`.
 * @param createProvider - Builds the provider under test; called once, before the first case, then
 * again with options by the cases that need another store (a change log with a tiny retention).
 *
 * @example
 * ```ts
 * import { memoryStore } from '@resourcery/core';
 * import { storeConformanceSuite } from '@resourcery/testing';
 *
 * storeConformanceSuite('memory', () => memoryStore());
 * storeConformanceSuite('legacy', () => legacyStore(), {
 *   skip: { 'transaction > a nested transaction is undone with the outer one': 'no savepoints' },
 * });
 * ```
 */
export function storeConformanceSuite(
  name: string,
  createProvider: (options?: StoreProviderOptions) => Promise<Store> | Store,
  options: StoreSuiteOptions = {},
): void {
  const skip = { ...options.skip };
  const known = new Set(
    storeCaseGroups.flatMap((group) => Object.keys(group.cases).map((c) => `${group.name} > ${c}`)),
  );
  const bare = new Set([...known].map((key) => key.slice(key.indexOf(' > ') + 3)));
  for (const key of Object.keys(skip)) {
    if (!known.has(key) && !bare.has(key)) throw new TypeError(`storeConformanceSuite: no case is named "${key}"`);
  }
  const prefix = options.prefix ?? `rs${Math.random().toString(36).slice(2, 8)}`;
  let counter = 0;
  let provider: Store | undefined;

  const run = async (group: StoreCaseGroup, test: StoreCase, skipCase: (note: string) => void): Promise<void> => {
    if (!provider) throw new Error('storeConformanceSuite: the provider could not be created');
    const name = `${prefix}_${++counter}`;
    const schemas = group.schemas?.(name) ?? [suiteSchema(name)];
    const collections = schemas.map((schema) => (provider as Store).collection(schema));
    await provider.init?.(schemas);
    const [schema, collection] = [schemas[0], collections[0]];
    if (!schema || !collection) throw new Error(`storeConformanceSuite: group "${group.name}" has no collection`);
    if (group.needs && typeof collection[group.needs] !== 'function') return skipCase(`no Collection.${group.needs}`);
    if (group.needsStore && typeof provider[group.needsStore] !== 'function') {
      return skipCase(`no Store.${group.needsStore}`);
    }
    const { analyze } = options;
    const storeWith = async (more: StoreProviderOptions) => createProvider(more);
    await test(collection, {
      store: provider,
      schema,
      schemas,
      collections,
      storeWith,
      ...(analyze ? { analyze } : {}),
    });
  };

  describe(`store conformance: ${name}`, () => {
    beforeAll(async () => {
      provider = await createProvider();
    });
    afterAll(async () => {
      await provider?.close?.();
    });
    for (const group of storeCaseGroups) {
      describe(group.name, () => {
        for (const [caseName, test] of Object.entries(group.cases)) {
          const reason = skip[`${group.name} > ${caseName}`] ?? skip[caseName];
          if (reason !== undefined) it.skip(`${caseName} (skipped: ${reason})`, () => {});
          else it(caseName, (context) => run(group, test, (note) => context.skip(note)));
        }
      });
    }
  });
}
