import type { Store } from '@resourcery/core/store';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createCases, idCases } from './store-cases/create-cases.js';
import { filterCases, findOneCases } from './store-cases/find-cases.js';
import type { StoreCase, StoreCaseGroup } from './store-cases/fixtures.js';
import { suiteSchema } from './store-cases/fixtures.js';
import { lifecycleCases } from './store-cases/lifecycle-cases.js';
import { orderCases } from './store-cases/order-cases.js';
import { transactionCases } from './store-cases/transaction-cases.js';
import { destroyCases, updateCases } from './store-cases/write-cases.js';

export { type CaseHome, type StoreCase, type StoreCaseGroup, suiteSchema } from './store-cases/fixtures.js';

/**
 * Every group of the store suite, in the order they run; each case receives a store over a fresh,
 * empty collection of {@link suiteSchema}. For running single cases outside Vitest's `describe`.
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
}

/**
 * Registers the shared store conformance suite with Vitest: every behaviour of the
 * {@link Collection} interface that the core and the HTTP contract rely on (ids, types, filters,
 * code point order, nulls, paging, counts, partial and concurrent updates, scopes,
 * transactions). Every case gets a fresh collection, obtained with `provider.collection(schema)`
 * and prepared with `provider.init([schema])`; the provider is closed after the last case.
 *
 * @param name - Shown in the report: `store conformance: <name>`.
 * @param createProvider - Builds the provider under test; called once, before the first case.
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
  createProvider: () => Promise<Store> | Store,
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

  const run = async (test: StoreCase): Promise<void> => {
    if (!provider) throw new Error('storeConformanceSuite: the provider could not be created');
    const schema = suiteSchema(`${prefix}_${++counter}`);
    const collection = provider.collection(schema);
    await provider.init?.([schema]);
    await test(collection, { store: provider, schema });
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
          else it(caseName, () => run(test));
        }
      });
    }
  });
}
