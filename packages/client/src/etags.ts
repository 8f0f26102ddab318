// The ETags of the records the client answered, kept beside them (never on them).

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
