import { toBase64Url } from '../schema/base64url.js';
import type { Change, ChangeLog } from './changes.js';

/** A change before the log gives it its position. */
export type NewChange = Omit<Change, 'seq'>;

/** The memory store's change log: how long and how many changes it keeps. */
export interface MemoryChangesOptions {
  /** How long a change is kept, in milliseconds. Default 15 minutes (the contract asks for at least 10). */
  readonly retentionMs?: number;
  /** The most changes kept, whatever their age, so that memory stays bounded. Default 100,000. */
  readonly maxChanges?: number;
}

/**
 * The change log of a memory store: the committed changes of its live collections, in this
 * process's memory, in commit order. Readers are woken after each commit (on the next
 * microtask); a position older than what is kept (by age or by number) reads `'gone'`.
 */
export class MemoryChangeLog implements ChangeLog {
  readonly retentionMs: number;
  private readonly maxChanges: number;
  private readonly kept: Change[] = [];
  private readonly times: number[] = [];
  /** Index in `kept` of the oldest change still kept (the array is compacted now and then). */
  private start = 0;
  private last = 0;
  private prunedThrough = 0;
  private readonly watchers = new Set<() => void>();
  private waking = false;
  private readonly id = toBase64Url(crypto.getRandomValues(new Uint8Array(6)));

  constructor(options: MemoryChangesOptions = {}) {
    this.retentionMs = options.retentionMs ?? 15 * 60_000;
    this.maxChanges = options.maxChanges ?? 100_000;
  }

  /** Appends the changes of one commit, in order, and wakes the readers. */
  append(changes: readonly NewChange[]): void {
    if (changes.length === 0) return;
    const now = Date.now();
    for (const change of changes) {
      this.kept.push({ ...change, seq: ++this.last });
      this.times.push(now);
    }
    this.prune(now);
    if (this.watchers.size > 0 && !this.waking) {
      this.waking = true;
      queueMicrotask(() => {
        this.waking = false;
        for (const wake of this.watchers) wake();
      });
    }
  }

  async read(after: number, limit: number): Promise<readonly Change[] | 'gone'> {
    this.prune(Date.now());
    if (after > this.last || after < this.prunedThrough) return 'gone';
    // Positions are consecutive: the change after `after` sits at a known index.
    const from = this.start + (after - this.prunedThrough);
    return this.kept.slice(from, from + limit);
  }

  async head(): Promise<number> {
    return this.last;
  }

  watch(wake: () => void): () => void {
    const own = () => wake();
    this.watchers.add(own);
    return () => this.watchers.delete(own);
  }

  async epoch(): Promise<string> {
    return this.id;
  }

  private prune(now: number): void {
    const oldest = now - this.retentionMs;
    let start = this.start;
    while (
      start < this.kept.length &&
      (this.kept.length - start > this.maxChanges || (this.times[start] as number) < oldest)
    ) {
      start++;
    }
    if (start === this.start) return;
    this.prunedThrough += start - this.start;
    this.start = start;
    // Compact once the dropped half outgrows the kept one.
    if (start > 1024 && start > this.kept.length - start) {
      this.kept.splice(0, start);
      this.times.splice(0, start);
      this.start = 0;
    }
  }
}
