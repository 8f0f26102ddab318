// `@resourcery/core/store`: what a store author implements and the helpers stores share.
export type { AttributeSchema, AttributeType, CollectionSchema, Scalar } from './schema/types.js';
export { compareCodePoints, compareScalars } from './store/compare.js';
export { memoryStore } from './store/memory-store.js';
export type { Collection, Condition, ListQuery, ListResult, Order, Store, StoredRecord } from './store/store.js';
export { type ConstraintKind, ConstraintViolation, StoreError, StoreUnavailable } from './store/store-errors.js';
