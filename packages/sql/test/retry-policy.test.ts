// The retry policy's arithmetic and which errors it takes for conflicts, without a database (the
// conflicts themselves are provoked on PostgreSQL and MariaDB in test/retries*.test.ts).
import { HttpError } from '@resourcery/core';
import { type StoreRetry, StoreUnavailable } from '@resourcery/core/store';
import { describe, expect, it } from 'vitest';
import { RetryPolicy } from '../src/store/retries.js';
import { conflictCode } from '../src/store/translate-error.js';

describe('conflictCode', () => {
  it('names the SQLSTATE of a serialization failure or a deadlock, whatever wraps it', () => {
    const pgDeadlock = { code: '40P01', message: 'deadlock detected' };
    const mysqlDeadlock = { code: 'ER_LOCK_DEADLOCK', errno: 1213, sqlState: '40001' };
    expect(conflictCode({ code: '40001' })).toBe('40001');
    expect(conflictCode(pgDeadlock)).toBe('40P01');
    expect(conflictCode(mysqlDeadlock)).toBe('40001');
    expect(conflictCode(new StoreUnavailable(pgDeadlock))).toBe('40P01');
    // A bulk write's record: the store error mapped to a 503 that keeps the driver's error as cause.
    const record = new HttpError(503, 'service_unavailable', { cause: pgDeadlock });
    expect(conflictCode(record)).toBe('40P01');
  });

  it('takes no other failure for a conflict: lock timeouts, constraints, connections', () => {
    for (const error of [
      { code: '55P03' },
      { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205, sqlState: 'HY000' },
      { code: '23505' },
      { code: 'SQLITE_BUSY' },
      { code: 'ECONNRESET' },
      new StoreUnavailable(new Error('Connection terminated')),
      undefined,
      'deadlock',
    ]) {
      expect(conflictCode(error)).toBeUndefined();
    }
  });
});

describe('RetryPolicy', () => {
  const conflict = { code: '40001' };

  /** Runs `attempt` through the policy after a first conflict, collecting what the listeners are told. */
  async function run(policy: RetryPolicy, attempt: () => Promise<string>, started = Date.now()) {
    const told: StoreRetry[] = [];
    const outcome = await policy
      .retry(conflict, started, attempt, conflictCode, { scope: 'transaction' }, (retry) => told.push(retry))
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
    return { outcome, told };
  }

  it('runs again until the work succeeds, each pause within its doubling bound', async () => {
    let runs = 1; // the first one failed
    const policy = new RetryPolicy({ attempts: 4, baseDelayMs: 2, maxDelayMs: 5 });
    const { outcome, told } = await run(policy, async () => {
      runs += 1;
      if (runs < 4) throw conflict;
      return 'done';
    });
    expect(outcome).toEqual({ value: 'done' });
    expect(told.map((retry) => retry.attempt)).toEqual([2, 3, 4]);
    const bounds = [2, 4, 5]; // 2·2^0, 2·2^1, then capped by maxDelayMs
    for (const [index, retry] of told.entries()) {
      expect(retry.delayMs).toBeGreaterThanOrEqual(0);
      expect(retry.delayMs).toBeLessThanOrEqual(bounds[index] as number);
    }
  });

  it('stops after `attempts` runs, and throws the last error', async () => {
    const last = { code: '40P01' };
    const { outcome, told } = await run(new RetryPolicy({ attempts: 3, baseDelayMs: 1 }), async () => {
      throw last;
    });
    expect(outcome).toEqual({ error: last });
    expect(told).toHaveLength(2);
  });

  it('stops at an error that is not a conflict', async () => {
    const constraint = { code: '23505' };
    const { outcome, told } = await run(new RetryPolicy({ baseDelayMs: 1 }), async () => {
      throw constraint;
    });
    expect(outcome).toEqual({ error: constraint });
    expect(told).toHaveLength(1);
  });

  it('begins no retry past the budget, counted from the first attempt', async () => {
    let runs = 0;
    const policy = new RetryPolicy({ budgetMs: 2000 });
    const { outcome, told } = await run(
      policy,
      async () => {
        runs += 1;
        return 'never';
      },
      Date.now() - 5000,
    );
    expect(outcome).toEqual({ error: conflict });
    expect([runs, told.length]).toEqual([0, 0]);
  });

  it('has no policy for retries: false or a single attempt, and ignores a listener that throws', async () => {
    expect(RetryPolicy.of(false)).toBeUndefined();
    expect(RetryPolicy.of({ attempts: 1 })).toBeUndefined();
    expect(RetryPolicy.of(undefined)).toMatchObject({ attempts: 3, baseDelayMs: 10, maxDelayMs: 200, budgetMs: 2000 });
    const policy = new RetryPolicy({
      baseDelayMs: 1,
      onRetry: () => {
        throw new Error('the metrics are down');
      },
    });
    expect(await policy.retry(conflict, Date.now(), async () => 'done', conflictCode, { scope: 'statement' })).toBe(
      'done',
    );
  });
});
