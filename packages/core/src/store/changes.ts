import type { Id } from '../schema/types.js';
import type { StoredRecord } from './store.js';

/** What happened to a record: the `event:` of a live event (CONTRACT part 4, "Live events"). */
export type ChangeKind = 'created' | 'updated' | 'destroyed';

/**
 * One committed change of a record of a live collection (a schema with `live: true`), as the
 * store's {@link ChangeLog} keeps it: the record before and after, in stored form (sets of ids
 * such as `labelIds` included), so that any process can decide who may see it without reading
 * the database again.
 *
 * @example
 * ```ts
 * const change: Change = { seq: 42, collection: 'issues', kind: 'updated', id: 7, before: { id: 7, status: 'open' }, after: { id: 7, status: 'done' } };
 * ```
 */
export interface Change {
  /** The position in the log: increasing in commit order, never reused (1 for the first change). */
  readonly seq: number;
  /** The collection's name (`CollectionSchema.name`). */
  readonly collection: string;
  readonly kind: ChangeKind;
  readonly id: Id;
  /** The record before the change: `null` for `created`. */
  readonly before: StoredRecord | null;
  /** The record after the change: `null` for `destroyed`. */
  readonly after: StoredRecord | null;
}

/**
 * A store's ordered, durable log of the committed changes of its live collections: what live
 * events are made of. Every write of a live collection appends its change in the write's own
 * transaction (a rolled-back write appends nothing), whatever path it comes by (an API action, a
 * bulk write, a raw `store.transaction`, a cascade or nullify of a destroy); the changes of one
 * transaction are appended in the order they were made, and transactions in the order they
 * commit. Kept at least `retentionMs`.
 *
 * @example
 * ```ts
 * const log = store.changes?.();
 * const stop = log?.watch(async () => console.log(await log.read(0, 100)));
 * ```
 */
export interface ChangeLog {
  /**
   * The changes committed after position `after`, in commit order, at most `limit` of them;
   * `'gone'` when some change after `after` is no longer kept (or `after` is past the newest:
   * a position from another log), so the reader must start over.
   */
  read(after: number, limit: number): Promise<readonly Change[] | 'gone'>;
  /** The position of the newest committed change (0 before any). */
  head(): Promise<number>;
  /**
   * Calls `wake` soon after changes commit, in this process or in another one sharing the
   * database (it may also call it when nothing changed); answers the function that stops it.
   * A lost wake-up loses nothing: the reader reads from its last position.
   */
  watch(wake: () => void): () => void;
  /** How long a change is kept at least, in milliseconds. */
  readonly retentionMs: number;
  /**
   * Tells this log from another one (a restarted memory store, another database): event ids
   * carry it, so that an id from elsewhere starts the stream over instead of replaying wrongly.
   */
  epoch(): Promise<string>;
}
