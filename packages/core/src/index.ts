// Public entry of @resourcery/core: declare resources, serve them, store them. Store authors
// import `@resourcery/core/store`, adapter and tool authors `@resourcery/core/adapter`.
import 'reflect-metadata';

export { type Api, type ApiOptions, createApi } from './api/create-api.js';
export type { ProblemCode } from './contract/problems.js';
export {
  BadRequestError,
  ConflictError,
  type FieldErrors,
  ForbiddenError,
  HttpError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from './errors/http-error.js';
export { type OpenApiDocument, type OpenApiOptions, openApiDocument } from './openapi/build-document.js';
export type {
  ActionContext,
  ContextOf,
  Filter,
  IndexContext,
  RecordOf,
} from './resource/context-types.js';
export { defineResource } from './resource/define-resource.js';
export type {
  AroundHook,
  ErrorHook,
  FieldRules,
  Hook,
  Hooks,
  Resource,
  ResourceOptions,
  Steps,
} from './resource/options.js';
export { memoryStore } from './store/memory-store.js';
export type { Store } from './store/store.js';
