import type { Change, ChangeLog } from '../store/changes.js';

/** How many changes one read of the log takes. */
const PAGE = 500;

/**
 * One subscriber of a {@link LiveHub}: the changes of one collection, each offered once, in
 * commit order (`position` is the last one it was offered, of any collection).
 */
export interface LiveSubscriber {
  readonly collection: string;
  /**
   * A value of an attribute that every record it may be told of holds (the tenant's: `orgId`
   * 1): the hub offers it only the changes of records that hold it before or after.
   */
  readonly partition?: { readonly field: string; readonly value: unknown };
  position: number;
  /** A change after `position`; the subscriber sets `position` to its `seq`. */
  take(change: Change): void;
  /** The changes after `position` are no longer kept: the subscriber must start over. */
  reset(position: number): void;
}

/**
 * Reads one store's change log once for every subscriber of this process: woken by the log after
 * each commit (here or in another process), it reads the changes after its position, in pages,
 * and offers each to the subscribers of its collection. With nobody subscribed it reads nothing
 * (the next subscriber starts at the log's head). A subscriber that names a position
 * (`Last-Event-ID`) first gets every kept change after it, then the live ones, each once.
 *
 * @example
 * ```ts
 * const hub = new LiveHub(store.changes());
 * const stop = await hub.subscribe(subscriber, lastSeq);
 * ```
 */
export class LiveHub {
  private position = -1;
  /** Each collection's subscribers by partition, with the changes held back from one still replaying. */
  private readonly byCollection = new Map<string, Partitions>();
  private count = 0;
  private stopWatching: (() => void) | undefined;
  private pumping: Promise<void> | undefined;
  private again = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly log: ChangeLog) {}

  /** The subscribers of this process. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds a subscriber from now on, or from `after` (a position it has seen): the kept changes
   * after it first (a reset when they are no longer kept). Answers the function that removes it.
   */
  async subscribe(subscriber: LiveSubscriber, after?: number): Promise<() => void> {
    this.stopWatching ??= this.log.watch(() => this.wake());
    if (this.position < 0) this.position = await this.log.head();
    let partitions = this.byCollection.get(subscriber.collection);
    if (!partitions) {
      partitions = { fields: new Set(), subscribers: new Map() };
      this.byCollection.set(subscriber.collection, partitions);
    }
    const key = subscriber.partition ? partitionKey(subscriber.partition.field, subscriber.partition.value) : '';
    if (subscriber.partition) partitions.fields.add(subscriber.partition.field);
    let set = partitions.subscribers.get(key);
    if (!set) {
      set = new Map();
      partitions.subscribers.set(key, set);
    }
    // From here on (no await in between) the hub offers every change after `until`: held back
    // while the subscriber replays the kept changes up to it.
    const until = this.position;
    subscriber.position = after === undefined || after > until ? until : after;
    const replaying = subscriber.position < until;
    const held: Change[] = [];
    set.set(subscriber, replaying ? held : undefined);
    this.count++;
    if (after !== undefined && after > until) subscriber.reset(until); // a position from another log
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      if (set.delete(subscriber)) this.count--;
    };
    if (replaying) {
      try {
        await this.replay(subscriber, until);
      } catch (error) {
        remove(); // the log cannot be read now: the subscriber is not left behind
        throw error;
      }
      for (const change of held) if (change.seq > subscriber.position) subscriber.take(change);
      if (set.get(subscriber) === held) set.set(subscriber, undefined);
    }
    return remove;
  }

  /** Stops reading the log (the API closes). */
  close(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    clearTimeout(this.retry);
  }

  /** The kept changes after the subscriber's position up to `until`, offered to it alone. */
  private async replay(subscriber: LiveSubscriber, until: number): Promise<void> {
    while (subscriber.position < until) {
      const page = await this.log.read(subscriber.position, PAGE);
      if (page === 'gone') return subscriber.reset(until);
      if (page.length === 0) return;
      for (const change of page) {
        if (change.seq > until) return;
        if (change.collection === subscriber.collection) subscriber.take(change);
        else subscriber.position = change.seq;
      }
    }
  }

  private wake(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
    });
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      if (this.count === 0) {
        this.position = -1; // nobody listens: the next subscriber starts at the head
        return;
      }
      try {
        await this.readAll();
      } catch {
        // The log cannot be read now (the database is down): try again in a second.
        clearTimeout(this.retry);
        this.retry = setTimeout(() => this.wake(), 1000);
        (this.retry as { unref?: () => void }).unref?.();
        return;
      }
    } while (this.again);
  }

  private async readAll(): Promise<void> {
    for (;;) {
      const page = await this.log.read(this.position, PAGE);
      if (page === 'gone') {
        // This process fell behind what the log keeps: every subscriber starts over.
        this.position = await this.log.head();
        for (const { subscribers } of this.byCollection.values()) {
          for (const set of subscribers.values()) for (const subscriber of set.keys()) subscriber.reset(this.position);
        }
        return;
      }
      for (const change of page) {
        const partitions = this.byCollection.get(change.collection);
        if (partitions) for (const set of partitionsOf(partitions, change)) offer(set, change);
        this.position = change.seq;
      }
      if (page.length < PAGE) return;
    }
  }
}

/** A collection's subscribers: by partition key (`''` for those of every record), and the fields partitioned on. */
interface Partitions {
  readonly fields: Set<string>;
  readonly subscribers: Map<string, Map<LiveSubscriber, Change[] | undefined>>;
}

function partitionKey(field: string, value: unknown): string {
  return `${field}\u0000${JSON.stringify(value ?? null)}`;
}

/** The subscribers a change may concern: those of every record, and those of its partitions before and after it. */
function partitionsOf(partitions: Partitions, change: Change): Map<LiveSubscriber, Change[] | undefined>[] {
  const { subscribers, fields } = partitions;
  const found: Map<LiveSubscriber, Change[] | undefined>[] = [];
  const all = subscribers.get('');
  if (all) found.push(all);
  for (const field of fields) {
    const before = change.before ? subscribers.get(partitionKey(field, change.before[field])) : undefined;
    const after = change.after ? subscribers.get(partitionKey(field, change.after[field])) : undefined;
    if (before) found.push(before);
    if (after && after !== before) found.push(after);
  }
  return found;
}

/** Offers a change to each subscriber of a set (held back from those still replaying). */
function offer(set: Map<LiveSubscriber, Change[] | undefined>, change: Change): void {
  for (const [subscriber, held] of set) {
    if (held) held.push(change);
    else if (change.seq > subscriber.position) subscriber.take(change);
  }
}
