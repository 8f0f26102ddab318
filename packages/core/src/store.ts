// `@resourcery/core/store`: the `Store` interface, what a store author implements and the helpers
// stores share. The memory store itself is `memoryStore` of `@resourcery/core`.
export { MAX_PRECISION } from './schema/convert.js';
export { referencedFirst } from './schema/referenced-first.js';
export type {
  AttributeSchema,
  AttributeType,
  CollectionSchema,
  ForeignKey,
  Id,
  IdSet,
  IndexKey,
  JsonObject,
  OnDelete,
  Scalar,
  StoredValue,
} from './schema/types.js';
export {
  canonicalDate,
  canonicalDateTime,
  canonicalDecimal,
  canonicalUuid,
  compareDecimals,
  type DecimalProblem,
} from './schema/values.js';
export { scaledOf, sumValue } from './store/aggregate-values.js';
export { compareCodePoints, compareScalars } from './store/compare.js';
export { ESTIMATE_ABOVE } from './store/estimate-above.js';
export { randomSecret } from './store/memory-store.js';
export { foldCase, matchesSearch, SEARCH_WORD_MAX, SEARCH_WORDS_MAX, searchWords } from './store/search-words.js';
export type {
  AggregateQuery,
  AggregateRow,
  Change,
  ChangeKind,
  ChangeLog,
  Collection,
  Condition,
  Isolation,
  ListQuery,
  ListResult,
  Order,
  SearchCondition,
  Store,
  StoredRecord,
  StoreRetry,
  StoreTransaction,
  TransactionOptions,
} from './store/store.js';
export { type ConstraintKind, ConstraintViolation, StoreError, StoreUnavailable } from './store/store-errors.js';
export { type ServerValues, serverValues } from './store/write-values.js';
