import type { IdOfResource } from './include.js';
import type { CreateInput, DefaultedKey, InputKey, UpdateInput } from './inputs.js';
import type { CallOptions, ModelOf, ResourceLike } from './types.js';

// Bulk writes and upserts (CONTRACT part 4, "Bulk writes"): `POST` with a list, `PATCH` and
// `DELETE` on the collection, `POST ?upsert=<field>`. All or none: any failure throws one
// ResourceError, whose `errors` name the offending fields by JSON Pointer (`/issues/2/title`).

/**
 * One entry of {@link BulkMethods.updateMany}: the record's `id`, optionally `_etag` (the ETag it
 * must still have, its `If-Match`), and the fields to change.
 *
 * @example
 * ```ts
 * const entry: UpdateEntry<typeof issues> = { id: 5, _etag: etagOf(issue), status: 'done' };
 * ```
 */
export type UpdateEntry<R extends ResourceLike> = { id: IdOfResource<R>; _etag?: string } & UpdateInput<ModelOf<R>>;

/** The body of a create of resource R: its attributes with a default may be left out. */
type Input<R extends ResourceLike> = CreateInput<ModelOf<R>, DefaultedKey<R>>;

/**
 * A create that upserts by `K`: the create's body, with a value for `K` (the record holding it is
 * updated, else one is created).
 *
 * @example
 * ```ts
 * const label: UpsertInput<typeof labels, 'name'> = { name: 'bug', color: '#d73a4a' };
 * ```
 */
export type UpsertInput<R extends ResourceLike, K extends InputKey<ModelOf<R>>> = Input<R> & {
  [P in K]-?: NonNullable<ModelOf<R>[P]>;
};

/**
 * The bulk writes and upserts of a client ({@link ResourceClient}), for a resource declaring
 * `bulk` (lists) or `upsert`. A resource without them answers a `ResourceError`: 405 for
 * `updateMany` and `destroyMany`, 422 for a list, 400 for `upsert`.
 *
 * @example
 * ```ts
 * const [a, b] = await issues.createMany([{ projectId, title: 'A' }, { projectId, title: 'B' }]);
 * await issues.updateMany([{ id: a.id, status: 'done' }, { id: b.id, priority: 1 }]);
 * await issues.destroyMany([a.id, b.id]);
 * ```
 */
export interface BulkMethods<R extends ResourceLike, T> {
  /** Creates the records, all or none (`POST` with `{"<plural>": [...]}`); answers them in the order given. */
  createMany(records: readonly Input<R>[], options?: CallOptions): Promise<T[]>;
  /**
   * Changes each entry's record (only the fields given), all or none (`PATCH` on the collection);
   * answers the whole records in the order given. A `_etag` that no longer matches is a 412 for
   * the batch; an entry whose `_etag` is present but `undefined` (a record from an index) throws a
   * `TypeError` before any request, rather than write unchecked.
   */
  updateMany(entries: readonly UpdateEntry<R>[], options?: CallOptions): Promise<T[]>;
  /** Destroys the records of these ids, all or none (`DELETE ?filter[id][]=...`); one that is not visible is a 404. */
  destroyMany(ids: readonly IdOfResource<R>[], options?: CallOptions): Promise<void>;
  /** Updates the record whose `by` has this value, else creates it (`POST ?upsert=<by>`); answers it. */
  upsert<K extends InputKey<ModelOf<R>>>(by: K, values: UpsertInput<R, K>, options?: CallOptions): Promise<T>;
  /** {@link BulkMethods.upsert} of each record, all or none (a resource declaring `bulk` too); answers them in order. */
  upsertMany<K extends InputKey<ModelOf<R>>>(
    by: K,
    records: readonly UpsertInput<R, K>[],
    options?: CallOptions,
  ): Promise<T[]>;
}

/** How the bulk methods reach the server: the client's own request and answer readers. */
export interface BulkTransport {
  readonly url: string;
  readonly name: string;
  readonly plural: string;
  /** Sends a write with the method of `action` (`POST`, `PATCH`, `DELETE`) to `target`. */
  send(
    action: 'create' | 'update' | 'destroy',
    target: string,
    call: CallOptions | undefined,
    body?: unknown,
  ): Promise<Response>;
  /** The list under `key` of an answer's body. */
  list(response: Response, key: string): Promise<unknown[]>;
  /** The record of a single answer (`{"<name>": ...}`), its ETag kept. */
  record(response: Response): Promise<unknown>;
}

/** A list must hold something: an empty one is refused before any request, as the server would refuse it. */
function nonEmpty(method: string, list: readonly unknown[]): void {
  if (list.length === 0) throw new RangeError(`${method}: the list is empty; give at least one record`);
}

/**
 * The bulk methods of a client, over its transport.
 *
 * @example
 * ```ts
 * const client = { ...singleMethods, ...bulkMethods<typeof issues, Issue>(transport) };
 * ```
 */
export function bulkMethods<R extends ResourceLike, T>(transport: BulkTransport): BulkMethods<R, T> {
  const { url, name, plural } = transport;
  const list = async (response: Response) => (await transport.list(response, plural)) as T[];
  const upsertUrl = (by: string) => `${url}?upsert=${encodeURIComponent(by)}`;

  return {
    async createMany(records, call) {
      nonEmpty('createMany', records);
      return list(await transport.send('create', url, call, { [plural]: records }));
    },
    async updateMany(entries, call) {
      nonEmpty('updateMany', entries);
      for (const [index, entry] of entries.entries()) {
        if (Object.hasOwn(entry, '_etag') && typeof entry._etag !== 'string') {
          throw new TypeError(
            `updateMany: entry ${index} has an _etag that is not an ETag; give a string or leave it out`,
          );
        }
      }
      return list(await transport.send('update', url, call, { [plural]: entries }));
    },
    async destroyMany(ids, call) {
      nonEmpty('destroyMany', ids);
      const query = ids.map((id) => `filter[id][]=${encodeURIComponent(String(id))}`).join('&');
      await transport.send('destroy', `${url}?${query}`, call);
    },
    async upsert(by, values, call) {
      return (await transport.record(await transport.send('create', upsertUrl(by), call, { [name]: values }))) as T;
    },
    async upsertMany(by, records, call) {
      nonEmpty('upsertMany', records);
      return list(await transport.send('create', upsertUrl(by), call, { [plural]: records }));
    },
  };
}
