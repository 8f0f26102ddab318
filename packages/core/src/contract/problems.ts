/**
 * Every problem code the library answers with, and its status: the one source of the codes the
 * core throws, the OpenAPI document describes, docs/errors.md lists and the client knows.
 *
 * @example
 * ```ts
 * PROBLEM_STATUS.precondition_failed; // 412
 * ```
 */
export const PROBLEM_STATUS = Object.freeze({
  bad_request: 400,
  invalid_query: 400,
  malformed_body: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  validation_failed: 422,
  too_many_requests: 429,
  request_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const);

/** Machine-readable codes carried by every problem; one per kind of problem. */
export type ProblemCode = keyof typeof PROBLEM_STATUS;

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Reason phrase for a status code, used as the problem's `title`.
 *
 * @example
 * ```ts
 * statusTitle(422); // 'Unprocessable Content'
 * ```
 */
export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/** Names that are never attribute names (prototype pollution): refused in queries and bodies. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
