// Public entry of @resourcery/core: what a user of `defineResource` needs to declare resources,
// serve them (`createApi`, `HttpError`) and keep them in memory (`memoryStore`). Each name has
// one home: the `Store` interface and what a store author implements or shares come from
// `@resourcery/core/store`, what adapter and tool authors use from `@resourcery/core/adapter`.
import 'reflect-metadata';

export type { AccessRules, FieldAccess, Rule, Tenancy } from './access/declare.js';
export type { Principal, Register, RolesOf, Who } from './access/principal.js';
export type { OperatorWhere, Where, WhereValue } from './access/where.js';
export { type Api, type ApiOptions, createApi } from './api/create-api.js';
export type { HealthOptions } from './api/health.js';
export type { Logger, LogMethod, RequestLine } from './api/logger.js';
export type { TracingOption } from './api/tracing.js';
export type { ProblemCode } from './contract/problems.js';
export {
  BadRequestError,
  ConflictError,
  type FieldErrors,
  ForbiddenError,
  HttpError,
  type HttpErrorOptions,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from './errors/http-error.js';
export { type Authenticate, type BearerJwtOptions, bearerJwt } from './http/bearer-jwt.js';
export { type OpenApiDocument, type OpenApiOptions, openApiDocument } from './openapi/build-document.js';
export type {
  ActionContext,
  ContextOf,
  Done,
  Filter,
  IdOf,
  IndexContext,
  RecordOf,
  ServerSet,
  StatsContext,
} from './resource/context-types.js';
export { defineResource } from './resource/define-resource.js';
export type { AroundHook, ErrorHook, Hook, Hooks } from './resource/hooks.js';
export type { FieldRules, Relations, Resource, ResourceOptions, Steps } from './resource/options.js';
export {
  type BelongsTo,
  belongsTo,
  type HasMany,
  hasMany,
  type ManyToMany,
  manyToMany,
  type Relation,
  type RelationTarget,
} from './resource/relations.js';
export type { StatsDeclaration } from './resource/stats.js';
export type { TypeDeclaration } from './schema/infer-attributes.js';
export { memoryStore } from './store/memory-store.js';
