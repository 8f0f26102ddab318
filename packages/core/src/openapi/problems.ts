import {
  BadRequestError,
  ConflictError,
  HttpError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors/http-error.js';
import { preconditionFailed } from '../http/conditional.js';
import { toProblemResponse } from '../http/problem.js';
import { authenticationRequired } from '../resource/guard.js';
import type { JsonSchema } from './schemas.js';

/** Media type of every error response (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Names of the shared component schemas; resource schemas are named around them. */
export const PROBLEM_SCHEMA = 'Problem';
export const VALIDATION_PROBLEM_SCHEMA = 'ValidationProblem';
export const FORBIDDEN_PROBLEM_SCHEMA = 'ForbiddenProblem';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The `errors` member of a 422 (and of a 403 naming fields): each offending field with its messages. */
const FIELD_ERRORS: JsonSchema = {
  type: 'object',
  description: 'Per-field messages: what is invalid (422), or which fields the caller may not write (403)',
  additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
  examples: [{ author: ['is required'] }],
};

/** The shared component schemas of problem details. */
export const problemSchemas: Record<string, JsonSchema> = {
  [PROBLEM_SCHEMA]: {
    type: 'object',
    description:
      'An RFC 9457 problem details object. More members may be added; clients ignore the ones they do not know.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri-reference', examples: ['about:blank'] },
      title: { type: 'string', description: 'The reason phrase of the status', examples: ['Not Found'] },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong in this request, for humans' },
      code: {
        type: 'string',
        description: 'A stable machine-readable code, e.g. `invalid_query`, `validation_failed`, `not_found`',
        examples: ['validation_failed'],
      },
      errors: FIELD_ERRORS,
    },
  },
  // The branch declares what it requires: a generator (openapi-typescript) types a branch that
  // requires an undeclared member as an object with no members, which no problem satisfies.
  [VALIDATION_PROBLEM_SCHEMA]: {
    allOf: [ref(PROBLEM_SCHEMA), { type: 'object', required: ['errors'], properties: { errors: FIELD_ERRORS } }],
  },
  // A 403 names the fields the caller may not write; one refusing the whole action has no `errors`.
  [FORBIDDEN_PROBLEM_SCHEMA]: {
    allOf: [
      ref(PROBLEM_SCHEMA),
      {
        type: 'object',
        properties: {
          errors: {
            ...FIELD_ERRORS,
            description:
              'The fields sent that the caller may not write, each with why (absent when the whole action is refused)',
            examples: [{ priority: ['may not be changed by you'] }],
          },
        },
      },
    ],
  },
};

/** The problem a thrown error becomes on the wire, so the examples are exactly what clients get. */
function example(error: unknown): unknown {
  return JSON.parse(toProblemResponse(error).body as string);
}

/** A problem response: its description, the problem schema (its status fixed) and the error's problem as the example. */
export function problemResponse(
  status: number | undefined,
  description: string,
  error: unknown,
  extra: { schema?: string; headers?: Record<string, unknown> } = {},
): JsonSchema {
  const base = ref(extra.schema ?? PROBLEM_SCHEMA);
  const schema = status === undefined ? base : { allOf: [base, { properties: { status: { const: status } } }] };
  return {
    description,
    ...(extra.headers ? { headers: extra.headers } : {}),
    content: { [PROBLEM_MEDIA_TYPE]: { schema, example: example(error) } },
  };
}

/** Names of the shared error responses. */
export type ProblemResponseName =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'NotAcceptable'
  | 'Conflict'
  | 'PreconditionFailed'
  | 'ContentTooLarge'
  | 'UriTooLong'
  | 'RequestHeadersTooLarge'
  | 'UnsupportedMediaType'
  | 'ValidationFailed'
  | 'BulkValidationFailed'
  | 'BulkForbidden'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'OtherProblem';

/** Shared error responses by component name; operations reference them. */
export const problemResponses: Record<ProblemResponseName, JsonSchema> = {
  BadRequest: problemResponse(
    400,
    'The request cannot be understood: an unknown or disallowed attribute in `filter` or `sort`, a filter value of the wrong type, an unknown relation in `include`, a malformed parameter, `per_page` over the maximum, broken JSON, or a body that is not a JSON object.',
    new BadRequestError('sort: "year" is not an attribute that can be used here (allowed: id, name)', 'invalid_query'),
  ),
  Unauthorized: problemResponse(
    401,
    'No credentials where the operation needs them, or credentials that are not good (a bearer token that is malformed, badly signed, expired, or lacks a claim). Answered before anything else of the request is looked at.',
    authenticationRequired(),
    {
      headers: {
        'WWW-Authenticate': {
          description:
            'The scheme to authenticate with: `Bearer`; with `error="invalid_token"` for a token that is not good, `error="invalid_request"` for an `Authorization` header that is not `Bearer <token>`',
          required: true,
          schema: { type: 'string', examples: ['Bearer', 'Bearer error="invalid_token"'] },
        },
      },
    },
  ),
  Forbidden: problemResponse(
    403,
    'The caller may not take this action (their role never may), may not change or destroy this record, or may not write some of the fields sent: `errors` then names each of them. Nothing was changed.',
    new HttpError(403, 'forbidden', {
      detail: 'You may not change priority',
      errors: { priority: ['may not be changed by you'] },
    }),
    { schema: FORBIDDEN_PROBLEM_SCHEMA },
  ),
  NotFound: problemResponse(
    404,
    'No such record (an id that is not a positive integer never exists), or no such path.',
    new NotFoundError('book 7 does not exist'),
  ),
  NotAcceptable: problemResponse(
    406,
    'The operation answers only a media type the request does not accept: live events need `Accept: text/event-stream`.',
    new HttpError(406, 'not_acceptable', { detail: 'Live events are sent as text/event-stream only' }),
  ),
  Conflict: problemResponse(
    409,
    'Other records still refer to this one through a relation that does not cascade: destroy or reassign them first. Nothing was deleted.',
    new HttpError(409, 'conflict', {
      detail: 'author 3 is still referred to by its books: destroy or reassign them first',
    }),
  ),
  PreconditionFailed: problemResponse(
    412,
    'The record has changed since the client read it: its ETag no longer matches `If-Match`. Nothing was changed; read it again.',
    preconditionFailed(),
  ),
  UriTooLong: problemResponse(
    414,
    'The query string is longer than the limit.',
    new HttpError(414, 'uri_too_long', {
      detail: 'The query string is 5000 characters long; at most 4096 are accepted',
    }),
  ),
  RequestHeadersTooLarge: problemResponse(
    431,
    "The request line and headers together are larger than the server accepts (Node's limit, 16 KiB by default). A problem+json body when the server is passed to `answerClientErrors` of `@resourcery/node`, else Node's bare status line.",
    new HttpError(431, 'request_too_large', { detail: 'The request headers are larger than the server accepts' }),
  ),
  ContentTooLarge: problemResponse(
    413,
    'The body is larger than the limit; the server stops reading it.',
    new HttpError(413, 'payload_too_large', { detail: 'The request body is larger than the limit of 1048576 bytes' }),
  ),
  UnsupportedMediaType: problemResponse(
    415,
    'The body is not JSON: send `Content-Type: application/json` (or another `+json` type).',
    new HttpError(415, 'unsupported_media_type', {
      detail: 'The request body must be JSON (Content-Type: application/json), not text/plain',
    }),
  ),
  ValidationFailed: problemResponse(
    422,
    'The body is JSON but some fields are not acceptable (a foreign key naming no record `does not exist`, a unique value `is already taken`); `errors` maps each offending field to its messages. Nothing was stored.',
    new ValidationError({ author: ['is required'] }),
    { schema: VALIDATION_PROBLEM_SCHEMA },
  ),
  // A resource taking bulk writes names the offending members of a list by JSON Pointer into the body.
  BulkValidationFailed: problemResponse(
    422,
    'The body is JSON but some fields are not acceptable; `errors` maps each to its messages: by field name for one record, by JSON Pointer into the body for a list (`/books/2/name`; an empty or too long list names `/books`, an id that is not visible `/books/3/id` `does not exist`). Nothing was stored.',
    new ValidationError({ '/books/2/name': ['is required'] }),
    { schema: VALIDATION_PROBLEM_SCHEMA },
  ),
  BulkForbidden: problemResponse(
    403,
    'The caller may not take this action, or may not write some of the fields sent: `errors` then names each, by field name for one record, by JSON Pointer into the body for a list (`/books/3/priority`). Nothing was changed.',
    new HttpError(403, 'forbidden', {
      detail: 'You may not change /books/3/priority',
      errors: { '/books/3/priority': ['may not be changed by you'] },
    }),
    { schema: FORBIDDEN_PROBLEM_SCHEMA },
  ),
  InternalError: problemResponse(
    500,
    'An unexpected error; it was logged on the server and no details are sent.',
    new Error('hidden'),
  ),
  ServiceUnavailable: problemResponse(
    503,
    'The data store cannot be reached right now; retry later.',
    new ServiceUnavailableError(),
    {
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
      },
    },
  ),
  OtherProblem: problemResponse(
    undefined,
    'Any other problem raised by a hook of the resource (401, 403, 409...).',
    new ConflictError('A book with this name already exists'),
  ),
};

/** A reference to a shared error response. */
export const problemRef = (name: ProblemResponseName) => ({ $ref: `#/components/responses/${name}` });
