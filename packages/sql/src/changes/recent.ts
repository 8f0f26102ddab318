import type { Change } from '@resourcery/core/store';
import type { PendingChange } from './log-sql.js';

/**
 * The changes this process committed lately, by position, as `read` answers them: a reader that
 * stands right before one of them gets it, and those that follow it without a gap, without a
 * query. The change log reads the table instead as soon as another process may have committed
 * (its notification, or a poll that saw the head move past these).
 *
 * @example
 * ```ts
 * const recent = new RecentChanges(10_000, 15 * 60_000);
 * recent.add(pending, [41, 42]);
 * recent.after(40, 100); // the changes at 41 and 42
 * ```
 */
export class RecentChanges {
  private readonly byPosition = new Map<number, Change>();
  /** When each position committed (a change older than the log keeps is never answered from here). */
  private readonly times = new Map<number, number>();
  private readonly positions: number[] = [];
  private oldest = 0;
  /** The highest position held (0 before any). */
  highest = 0;

  constructor(
    private readonly most: number,
    private readonly retentionMs: number,
  ) {}

  /** The changes of one commit and their positions (in the same order). */
  add(pending: readonly PendingChange[], positions: readonly number[]): void {
    const now = Date.now();
    pending.forEach((change, n) => {
      const seq = positions[n] as number;
      const before = change.before === null ? null : JSON.parse(change.before);
      const after = change.after === null ? null : JSON.parse(change.after);
      this.byPosition.set(seq, {
        seq,
        collection: change.collection,
        kind: change.kind,
        id: (after ?? before).id,
        before,
        after,
      });
      this.times.set(seq, now);
      this.positions.push(seq);
      if (seq > this.highest) this.highest = seq;
    });
    while (this.positions.length - this.oldest > this.most) {
      const seq = this.positions[this.oldest++] as number;
      this.byPosition.delete(seq);
      this.times.delete(seq);
    }
    if (this.oldest > 1024 && this.oldest * 2 > this.positions.length) {
      this.positions.splice(0, this.oldest);
      this.oldest = 0;
    }
  }

  /** The changes right after `after` held here without a gap, at most `limit`; `undefined` when the next one is not held. */
  after(after: number, limit: number): Change[] | undefined {
    const first = this.byPosition.get(after + 1);
    // One the table may have pruned is asked of the table, which answers `'gone'` then.
    if (!first || Date.now() - (this.times.get(after + 1) as number) >= this.retentionMs) return undefined;
    const found = [first];
    for (let seq = after + 2; found.length < limit; seq++) {
      const next = this.byPosition.get(seq);
      if (!next) break;
      found.push(next);
    }
    return found;
  }
}
