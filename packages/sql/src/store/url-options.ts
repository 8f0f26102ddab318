import type { ConnectionOptions } from '../dialects/index.js';

/** The options of the store itself that a PostgreSQL URL may carry (pg never sees them). */
const STORE_PARAMETERS = new Set(['preparedStatements']);

/**
 * Takes the store's own parameters out of a PostgreSQL connection URL (`?preparedStatements=false`,
 * so that `DATABASE_URL` alone can say it) and answers the URL pg is given, without them, and the
 * options they set. Options given in code win over the URL's.
 *
 * @throws TypeError for a value other than `true` or `false`.
 * @example
 * ```ts
 * storeParameters('postgres://app@pgbouncer:6432/books?preparedStatements=false&sslmode=require');
 * // { location: 'postgres://app@pgbouncer:6432/books?sslmode=require', options: { preparedStatements: false } }
 * ```
 */
export function storeParameters(url: string): { location: string; options: ConnectionOptions } {
  const start = url.indexOf('?');
  if (start < 0) return { location: url, options: {} };
  let preparedStatements: boolean | undefined;
  const kept = url
    .slice(start + 1)
    .split('&')
    .filter((pair) => {
      const [name = '', value = ''] = pair.split('=');
      if (!STORE_PARAMETERS.has(decodeURIComponent(name))) return true;
      const text = decodeURIComponent(value);
      if (text !== 'true' && text !== 'false') {
        throw new TypeError(`Database URL: ${name} takes true or false, not "${text}"`);
      }
      preparedStatements = text === 'true';
      return false;
    });
  const location = kept.length > 0 ? `${url.slice(0, start)}?${kept.join('&')}` : url.slice(0, start);
  return { location, options: preparedStatements === undefined ? {} : { preparedStatements } };
}
