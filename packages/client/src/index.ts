// Public entry of @resourcery/client: a typed fetch client for Resourcery resources. No runtime
// dependency: the types are read from the resource declaration with `import type`.
export { indexQueryString, parseLinks } from './query-string.js';
export { type ClientOptions, pluralize, type ResourceClient, resourceClient } from './resource-client.js';
export { PROBLEM_CODES, type Problem, type ProblemCode, ResourceError } from './resource-error.js';
export type {
  CallOptions,
  ClientRecord,
  CreateInput,
  DataKey,
  FieldName,
  FilterValue,
  IndexParams,
  IndexResult,
  ModelOf,
  PageRelation,
  ResourceLike,
  ResourceType,
  SortKey,
  UpdateInput,
} from './types.js';
