import { type ProblemResponseName, problemRef } from './problems.js';

/** The status each shared problem response is listed under in an operation (`default`: any other). */
export const PROBLEM_RESPONSE_STATUS: Readonly<Record<ProblemResponseName, string>> = {
  BadRequest: '400',
  Unauthorized: '401',
  Forbidden: '403',
  BulkForbidden: '403',
  NotFound: '404',
  NotAcceptable: '406',
  Conflict: '409',
  PreconditionFailed: '412',
  ContentTooLarge: '413',
  UriTooLong: '414',
  UnsupportedMediaType: '415',
  ValidationFailed: '422',
  BulkValidationFailed: '422',
  RequestHeadersTooLarge: '431',
  InternalError: '500',
  ServiceUnavailable: '503',
  OtherProblem: 'default',
};

/**
 * The problem responses of an operation by status: the named ones, then those any request may
 * give (headers over Node's limit, a fault, an outage, another problem a hook raises).
 *
 * @example
 * ```ts
 * Object.keys(problemResponsesOf('NotFound')); // ['404', '431', '500', '503', 'default']
 * ```
 */
export function problemResponsesOf(...names: ProblemResponseName[]): Record<string, unknown> {
  const always = ['RequestHeadersTooLarge', 'InternalError', 'ServiceUnavailable', 'OtherProblem'] as const;
  const responses: Record<string, unknown> = {};
  for (const name of [...names, ...always]) responses[PROBLEM_RESPONSE_STATUS[name]] = problemRef(name);
  return responses;
}
