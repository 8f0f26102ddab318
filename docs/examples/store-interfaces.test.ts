// docs/stores.md shows the store interfaces as store-interfaces.ts restates them: the compiler
// (the repository's typecheck, and Vitest's when it runs this file) checks that they are
// exactly those of @resourcery/core/store.
import type * as Core from '@resourcery/core/store';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Shown from './store-interfaces.js';

describe('the store interfaces docs/stores.md shows', () => {
  it('are those of @resourcery/core/store', () => {
    expectTypeOf<Shown.Condition>().toEqualTypeOf<Core.Condition>();
    expectTypeOf<Shown.Order>().toEqualTypeOf<Core.Order>();
    expectTypeOf<Shown.ListQuery>().toEqualTypeOf<Core.ListQuery>();
    expectTypeOf<Shown.ListResult>().toEqualTypeOf<Core.ListResult>();
    expectTypeOf<Shown.AggregateQuery>().toEqualTypeOf<Core.AggregateQuery>();
    expectTypeOf<Shown.AggregateRow>().toEqualTypeOf<Core.AggregateRow>();
    expectTypeOf<Shown.Collection>().toEqualTypeOf<Core.Collection>();
    expectTypeOf<Shown.StoreTransaction>().toEqualTypeOf<Core.StoreTransaction>();
    expectTypeOf<Shown.StoreRetry>().toEqualTypeOf<Core.StoreRetry>();
    expectTypeOf<Shown.TransactionOptions>().toEqualTypeOf<Core.TransactionOptions>();
    expectTypeOf<Shown.Store>().toEqualTypeOf<Core.Store>();
    expectTypeOf<Shown.Change>().toEqualTypeOf<Core.Change>();
    expectTypeOf<Shown.ChangeLog>().toEqualTypeOf<Core.ChangeLog>();
  });
});
