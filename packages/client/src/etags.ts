import type { CallOptions } from './types.js';

// The ETags of the records the client answered, kept beside them (never on them), and the
// options of the calls that send them (`If-None-Match`, `If-Match`).

/** The ETag of each record `show`, `create` and `update` answered, for {@link etagOf}. */
export const etags = new WeakMap<object, string>();

/**
 * The ETag the server sent with a record that `show`, `create` or `update` answered (the
 * record's version), for `ifMatch` and `ifNoneMatch`; `undefined` for records of an index, which
 * carry none, and for objects the client did not answer.
 *
 * @example
 * ```ts
 * const book = await books.show(7);
 * localStorage.setItem('book-7-etag', etagOf(book) ?? '');
 * ```
 */
export function etagOf(record: object): string | undefined {
  return etags.get(record);
}

/** The ETag kept for a record, if `record` is one the client answered. */
export const tagOf = (record: unknown) =>
  typeof record === 'object' && record !== null ? etags.get(record) : undefined;

/**
 * Options of a `show`: `ifNoneMatch` is a copy of the record you hold (from `show`, `create` or
 * `update`); its ETag goes in `If-None-Match`, and when the record has not changed since (a
 * `304 Not Modified`) `show` answers that same copy, without a body to download.
 *
 * @example
 * ```ts
 * const book = await books.show(7, { ifNoneMatch: cached }); // `cached` itself when unchanged
 * ```
 */
export interface ShowOptions<T = object> extends CallOptions {
  ifNoneMatch?: T;
  /** `true`: the record even when it is archived, on a resource declared with `archive` (`archived=true`). */
  archived?: boolean;
}

/**
 * Options of an `update` or a `destroy`: `ifMatch` (a record from `show`, `create` or `update`,
 * or an ETag) sends `If-Match`, so that the write happens only if the record still has that
 * version; else a {@link ResourceError} 412 `precondition_failed`: someone changed it since you
 * read it. A record whose ETag is not known (one of an index) throws a `TypeError` rather than
 * write unchecked.
 *
 * @example
 * ```ts
 * await books.update(book.id, { name: 'Dune Messiah' }, { ifMatch: book });
 * ```
 */
export interface WriteOptions<T = object> extends CallOptions {
  ifMatch?: T | string;
}
