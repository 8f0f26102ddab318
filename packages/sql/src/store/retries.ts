import type { StoreRetry } from '@resourcery/core/store';

/**
 * How a SQL store runs work again after the database aborted it to settle a conflict with
 * another transaction (SQLSTATE `40001`, a serialization failure or a MySQL/MariaDB deadlock;
 * `40P01`, a PostgreSQL deadlock): a whole transaction of `store.transaction` (a bulk write's
 * too), or a write outside any transaction. Each pause is a random time between 0 and
 * `baseDelayMs`·2^(retry−1), at most `maxDelayMs` (exponential backoff with full jitter), so that
 * the transactions that met do not meet again.
 *
 * @example
 * ```ts
 * sqlStore(url, { retries: { attempts: 5, maxDelayMs: 500 } });
 * sqlStore(url, { retries: false }); // every conflict answers 503 at once
 * ```
 */
export interface RetryOptions {
  /** How many times work runs at most, the first time included (1: never again). Default: 3. */
  readonly attempts?: number;
  /** The bound of the first pause, doubled at each retry. Default: 10 ms. */
  readonly baseDelayMs?: number;
  /** The most a pause's bound grows to. Default: 200 ms. */
  readonly maxDelayMs?: number;
  /**
   * No retry begins once its pause would end more than this long after the first attempt began:
   * the bound of the whole (a deadlock takes PostgreSQL's `deadlock_timeout`, 1 s, to be found).
   * Default: 2000 ms.
   */
  readonly budgetMs?: number;
  /** Told of every retry of the store, before its pause, for metrics (errors it throws are ignored). */
  readonly onRetry?: (retry: StoreRetry) => void;
}

/** What a retry is about, besides its attempt, pause and code. */
type About = Pick<StoreRetry, 'scope' | 'collection'>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tell(listener: ((retry: StoreRetry) => void) | undefined, retry: StoreRetry): void {
  try {
    listener?.(retry);
  } catch {
    // A listener (a logger, a metric) must not change what the store does.
  }
}

/**
 * The retry policy of a store, made once from its `retries` option.
 *
 * @example
 * ```ts
 * const policy = RetryPolicy.of(options.retries); // undefined for `retries: false`
 * ```
 */
export class RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly budgetMs: number;
  readonly #onRetry: RetryOptions['onRetry'];

  constructor(options: RetryOptions = {}) {
    this.attempts = Math.max(1, Math.floor(options.attempts ?? 3));
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? 10);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 200);
    this.budgetMs = Math.max(0, options.budgetMs ?? 2000);
    this.#onRetry = options.onRetry;
  }

  /** The policy of a `retries` option: none for `false` or a single attempt. */
  static of(option: RetryOptions | false | undefined): RetryPolicy | undefined {
    if (option === false) return undefined;
    const policy = new RetryPolicy(option);
    return policy.attempts > 1 ? policy : undefined;
  }

  /**
   * Runs `attempt` again after its first run failed with `error` (that run began at `started`,
   * `Date.now()`), while `conflict` names the code of a conflict in the last error, attempts
   * are left and the budget allows the pause; else throws the last error.
   */
  async retry<T>(
    error: unknown,
    started: number,
    attempt: () => Promise<T>,
    conflict: (error: unknown) => string | undefined,
    about: About,
    listener?: (retry: StoreRetry) => void,
  ): Promise<T> {
    let last = error;
    for (let next = 2; next <= this.attempts; next++) {
      const code = conflict(last);
      if (code === undefined) break;
      const bound = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (next - 2));
      const delayMs = Math.round(Math.random() * bound);
      if (Date.now() + delayMs - started > this.budgetMs) break;
      const retry: StoreRetry = { ...about, attempt: next, delayMs, code };
      tell(this.#onRetry, retry);
      tell(listener, retry);
      await pause(delayMs);
      try {
        return await attempt();
      } catch (failed) {
        last = failed;
      }
    }
    throw last;
  }
}
