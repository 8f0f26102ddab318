import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { redactUrl, sqlStore } from '@resourcery/sql';

const SQL_URL = /^(sqlite|postgres|postgresql|mysql|mariadb):/i;

/**
 * Picks the store named by `DATABASE_URL`: `memory:` (forgets everything on restart),
 * `sqlite:<path>`, `postgres://…`/`postgresql://…`, `mysql://…`/`mariadb://…`.
 *
 * @example
 * ```ts
 * const store = storeFromUrl('postgres://postgres@127.0.0.1:5432/books');
 * ```
 */
export function storeFromUrl(url: string): Store {
  if (url === 'memory:' || url === 'memory') return memoryStore();
  if (SQL_URL.test(url)) return sqlStore(url);
  throw new Error(
    `DATABASE_URL: unsupported store "${redactUrl(url)}" (use memory:, sqlite:<path>, postgres://…, mysql://… or mariadb://…)`,
  );
}
