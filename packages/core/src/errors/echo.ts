/** The most characters of one client-sent value (an id, a path, a method...) a problem repeats. */
export const ECHO_LIMIT = 100;

/**
 * A value the client sent, as a problem's `detail` may repeat it: whole when it is short, else
 * its first {@link ECHO_LIMIT} characters (never half of a surrogate pair) followed by `…` and its
 * length. A hostile request can then never make an error answer larger than it is worth.
 *
 * @example
 * ```ts
 * echo('abc'); // 'abc'
 * echo('9'.repeat(10_000)); // '9999…9999… (10000 characters)', 100 nines
 * ```
 */
export function echo(value: string, limit = ECHO_LIMIT): string {
  if (value.length <= limit) return value;
  const end = isHighSurrogate(value.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return `${value.slice(0, end)}… (${value.length} characters)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
