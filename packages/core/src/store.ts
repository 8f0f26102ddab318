// `@resourcery/core/store`: what a store author implements and the helpers stores share.
export { MAX_PRECISION } from './schema/convert.js';
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
export { compareCodePoints, compareScalars } from './store/compare.js';
export { memoryStore, randomSecret } from './store/memory-store.js';
export type {
  Collection,
  Condition,
  ListQuery,
  ListResult,
  Order,
  Store,
  StoredRecord,
  StoreTransaction,
} from './store/store.js';
export { type ConstraintKind, ConstraintViolation, StoreError, StoreUnavailable } from './store/store-errors.js';
export { type ServerValues, serverValues } from './store/write-values.js';
