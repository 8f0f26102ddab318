/** Letters, digits and `-_.:@/+=`: what tracing systems and load balancers put in the header. */
const SANE = /^[\w.:@/+=-]{1,100}$/;

/**
 * The id of a request: the client's (or proxy's) `X-Request-Id` when it is a sane token of at
 * most 100 characters, else a new random UUID (Web Crypto, on every runtime).
 *
 * @example
 * ```ts
 * requestIdOf('abc-123'); // 'abc-123'
 * requestIdOf('<script>'); // a new UUID
 * ```
 */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && SANE.test(header) ? header : crypto.randomUUID();
}
