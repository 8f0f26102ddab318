// Public entry of @resourcery/core: declare resources, serve them, store them.
import 'reflect-metadata';

export { readJsonBody } from './body/read-body.js';
export { type InputRules, validateInput } from './body/validate-input.js';
export {
  BadRequestError,
  ConflictError,
  type FieldErrors,
  ForbiddenError,
  HttpError,
  type HttpErrorOptions,
  NotFoundError,
  type ProblemCode,
  ServiceUnavailableError,
  statusTitle,
  UnauthorizedError,
  ValidationError,
} from './errors/http-error.js';
export { type ErrorLogger, type Problem, toProblemResponse } from './errors/problem.js';
export { type Api, type ApiOptions, createApi } from './http/create-api.js';
export { headersToWrite, type NeutralRequest, type NeutralResponse, type RequestHandler } from './http/neutral.js';
export { type OpenApiDocument, type OpenApiOptions, openApiDocument } from './openapi/build-document.js';
export type { JsonSchema } from './openapi/schemas.js';
export type { DescriptionOptions } from './openapi/serve-description.js';
export { convertValue, parseId } from './query/convert.js';
export { parseIndexQuery, type RawFilter, type RawIndexQuery } from './query/parse-query.js';
export { type IndexQuery, type QueryRules, resolveIndexQuery } from './query/resolve-query.js';
export { compiledResource, defineResource, pluralize } from './resource/define-resource.js';
export type {
  ActionContext,
  ActionImplementation,
  ActionName,
  AroundHook,
  ContextRequest,
  FieldOf,
  FieldRules,
  Filter,
  Hook,
  HookMap,
  RecordOf,
  Resource,
  ResourceOptions,
  Steps,
} from './resource/types.js';
export { inferAttributes, type ModelClass } from './schema/infer-attributes.js';
export { compareCodePoints, compareScalars } from './store/compare.js';
export { memoryStore } from './store/memory-store.js';
export type {
  AttributeSchema,
  AttributeType,
  CollectionSchema,
  Condition,
  FindManyQuery,
  FindManyResult,
  Order,
  Scalar,
  Store,
  StoredRecord,
  StoreProvider,
} from './store/store.js';
export { ConstraintViolation, StoreUnavailable } from './store/store-errors.js';
