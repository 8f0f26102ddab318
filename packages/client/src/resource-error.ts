/**
 * Every problem code the server answers with, one per kind of problem (the `code` member of a
 * problem+json body). The same list as the server's (`PROBLEM_STATUS` of `@resourcery/core`);
 * a test keeps the two in step. Codes your own hooks throw may come on top of these.
 *
 * @example
 * ```ts
 * const known = (PROBLEM_CODES as readonly string[]).includes(error.code);
 * ```
 */
export const PROBLEM_CODES = Object.freeze([
  'bad_request',
  'invalid_query',
  'malformed_body',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'conflict',
  'precondition_failed',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'validation_failed',
  'too_many_requests',
  'request_too_large',
  'internal_error',
  'service_unavailable',
] as const);

/**
 * The problem codes the server sends ({@link PROBLEM_CODES}), `unexpected_response` for an
 * answer that is not a problem, and any other string (a code thrown by your own hooks).
 *
 * @example
 * ```ts
 * if (error.code === 'validation_failed') showErrors(error.errors);
 * ```
 */
export type ProblemCode = (typeof PROBLEM_CODES)[number] | 'unexpected_response' | (string & {});

/**
 * An RFC 9457 problem details object as the server sends it (extension members included).
 *
 * @example
 * ```ts
 * const problem: Problem = error.problem; // { type, title, status, detail, code, errors? }
 * ```
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: Record<string, string[]>;
  [member: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The one error the client throws for an answer that is not a success: it carries the
 * problem+json fields the server sent, including the per-field messages of a 422. An answer that
 * is not a problem (a proxy's HTML page, say) becomes one with the code `unexpected_response`.
 * Network failures are not answers: they reject with `fetch`'s own error.
 *
 * @example
 * ```ts
 * try {
 *   await books.create({ name: 'Dune', author: '' });
 * } catch (error) {
 *   if (error instanceof ResourceError && error.status === 422) showErrors(error.errors); // { author: ['...'] }
 *   else throw error;
 * }
 * ```
 */
export class ResourceError extends Error {
  override readonly name = 'ResourceError';
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly code: ProblemCode;
  /** Messages by field: what is invalid (422), or what the caller may not write (403); `{}` for other problems. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** The problem as received, with any extension members. */
  readonly problem: Problem;
  /** The response headers (`Retry-After`, `Allow`, ...). */
  readonly headers: Headers;

  constructor(problem: Problem, headers: Headers = new Headers()) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.problem = problem;
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.code = problem.code;
    this.errors = problem.errors ?? {};
    this.headers = headers;
  }

  /**
   * Reads a failed response into a `ResourceError`.
   *
   * @example
   * ```ts
   * const response = await fetch('/api/books/7');
   * if (!response.ok) throw await ResourceError.fromResponse(response);
   * ```
   */
  static async fromResponse(response: Response): Promise<ResourceError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isObject(body) && typeof body.title === 'string' && typeof body.detail === 'string') {
      const problem = {
        ...body,
        type: typeof body.type === 'string' ? body.type : 'about:blank',
        status: typeof body.status === 'number' ? body.status : response.status,
        code: typeof body.code === 'string' ? body.code : 'unexpected_response',
      } as Problem;
      if (!isObject(problem.errors)) delete problem.errors;
      return new ResourceError(problem, response.headers);
    }
    return ResourceError.unexpected(response, text.slice(0, 200) || response.statusText);
  }

  /** An answer of the wrong shape: not a problem, or a success without the expected body. */
  static unexpected(response: Response, detail: string): ResourceError {
    const title = response.statusText || `HTTP ${response.status}`;
    const problem: Problem = {
      type: 'about:blank',
      title,
      status: response.status,
      detail,
      code: 'unexpected_response',
    };
    return new ResourceError(problem, response.headers);
  }
}
