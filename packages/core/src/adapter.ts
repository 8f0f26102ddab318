// `@resourcery/core/adapter`: what adapters (Express, node:http, Fetch) and tools built on the
// core (OpenAPI, clients, test helpers) use besides the main entry (`createApi`, `Api`,
// `HttpError`, `ProblemCode` are there: each name has one home).
export type { HandleOptions } from './api/create-api.js';
export { unknownPathResponse } from './api/to-problem.js';
export { ACTIONS, type ActionName, type ActionSpec, type ActionTarget, BULK_ACTIONS } from './contract/actions.js';
export { DEFAULT_LIMITS, type Limits } from './contract/limits.js';
export { pluralize } from './contract/plural.js';
export { PROBLEM_STATUS, statusTitle } from './contract/problems.js';
export type { NeutralRequest, NeutralResponse, ResponseStream } from './http/neutral.js';
export { type ErrorLogger, type Problem, toProblemResponse } from './http/problem.js';
export { type StreamEnd, stopProducer, streamEnd, UNREAD_BODY_LINGER } from './http/stream-end.js';
export type { CompiledResource } from './resource/compile.js';
export type {
  ContextRequest,
  CreateContext,
  DestroyContext,
  MemberContext,
  ShowContext,
  UpdateContext,
} from './resource/context-types.js';
export { createContext } from './resource/create-context.js';
export { compiledResource } from './resource/define-resource.js';
export { resourceSchemas } from './resource/schemas.js';
export type { ModelClass } from './schema/infer-attributes.js';
