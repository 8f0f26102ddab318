// Public entry of @resourcery/client: a typed fetch client for Resourcery resources. No runtime
// dependency: the types are read from the resource declaration with `import type`.

export type { BulkMethods, UpdateEntry, UpsertInput } from './bulk.js';
export { etagOf, type ShowOptions, type WriteOptions } from './etags.js';
export { EventStreamParser, type StreamMessage, type StreamParserHandlers } from './event-stream-parser.js';
export type {
  EachMethod,
  IdOfResource,
  IdsFieldOf,
  IncludedValue,
  IncludeOption,
  IndexMethod,
  RelationName,
  RelationsOf,
  ResourceIndexParams,
  ResourceRecord,
  ShowMethod,
  WithIncluded,
} from './include.js';
export type { CreateInput, DefaultedKey, InputKey, UpdateInput } from './inputs.js';
export { pluralize } from './plural.js';
export { indexQueryString, parseLinks } from './query-string.js';
export type {
  Comparisons,
  FieldFilter,
  FieldsName,
  FieldsOption,
  FilterOperators,
  ModelFilter,
  RelatedFilter,
  ResourceFilter,
  TextOperators,
  WithFields,
} from './query-types.js';
export { type ClientOptions, type ResourceClient, resourceClient } from './resource-client.js';
export { PROBLEM_CODES, type Problem, type ProblemCode, ResourceError } from './resource-error.js';
export { type StatsEntry, type StatsMethod, type StatsParams, statsQueryString } from './stats.js';
export type {
  CallOptions,
  ClientRecord,
  DataKey,
  FieldName,
  FilterValue,
  IndexParams,
  IndexResult,
  ModelOf,
  PageRelation,
  RecordId,
  ResourceLike,
  ResourceType,
  SortKey,
} from './types.js';
export type { WatchMethod, WatchParams } from './watch.js';
export { WATCH_EVENT_TYPES, type Watch, type WatchEvent, type WatchOptions } from './watch-stream.js';
