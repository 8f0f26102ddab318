// Retries after a conflict (docs/deployment.md, "Retries"): the store's bounds, a hook that sends
// mail and so says that its transaction must never run twice, and a script's transaction at the
// serializable level whose retries are counted.
import { defineResource } from '@resourcery/core';
import type { StoreRetry, StoreTransaction } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { Book } from './book.js';

// The defaults, spelled out: at most 3 attempts, pauses of up to 10 then 20 ms (full jitter,
// doubling up to 200 ms), and no retry that would end more than 2 s after the first attempt began.
export const store = sqlStore(process.env.DATABASE_URL ?? 'sqlite::memory:', {
  retries: { attempts: 3, baseDelayMs: 10, maxDelayMs: 200, budgetMs: 2000 },
});

/** The mail sent: one per created book. */
export const outbox: string[] = [];

export const books = defineResource({
  name: 'book',
  model: Book,
  bulk: true,
  hooks: {
    after: {
      create: (ctx) => {
        // A batch whose hook sent mail is not run again after a conflict: it answers 503 instead.
        ctx.sideEffect();
        outbox.push(`${ctx.record?.name} is in the catalogue`);
      },
    },
  },
});

/** Runs `work` at the serializable level (run again, from the start, after a conflict), each retry counted. */
export function serializable<T>(work: (tx: StoreTransaction) => Promise<T>, retries: StoreRetry[]): Promise<T> {
  return store.transaction(work, { isolation: 'serializable', onRetry: (retry) => retries.push(retry) });
}
