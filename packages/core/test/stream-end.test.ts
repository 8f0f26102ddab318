// The end of a streamed body, shared by the adapters: once, whichever side comes first, and the
// producer's return() called only when the client or the shutdown ends it.
import { stopProducer, streamEnd } from '@resourcery/core/adapter';
import { describe, expect, it } from 'vitest';

function producer() {
  const calls = { returned: 0 };
  const iterator: AsyncIterator<string> = {
    next: async () => ({ done: false, value: 'data: 1\n\n' }),
    return: async () => {
      calls.returned++;
      return { done: true, value: undefined };
    },
  };
  return { iterator, calls };
}

describe('streamEnd', () => {
  it('finishes once: onEnd runs on the first call only, and the producer is not stopped', () => {
    const { iterator, calls } = producer();
    let ended = 0;
    const end = streamEnd(iterator, () => ended++);
    expect(end.over).toBe(false);
    expect(end.finish()).toBe(true);
    expect(end.over).toBe(true);
    expect(end.finish()).toBe(false);
    end.stop();
    expect(ended).toBe(1);
    expect(calls.returned).toBe(0);
  });

  it('stops once: the producer returns, and a later finish is a no-op', () => {
    const { iterator, calls } = producer();
    let ended = 0;
    const end = streamEnd(iterator, () => ended++);
    end.stop();
    end.stop();
    expect(end.finish()).toBe(false);
    expect(ended).toBe(1);
    expect(calls.returned).toBe(1);
  });

  it('stops a producer whose return() throws or rejects', async () => {
    const throwing: AsyncIterator<string> = {
      next: async () => ({ done: true, value: undefined }),
      return: () => {
        throw new Error('sync');
      },
    };
    const rejecting: AsyncIterator<string> = {
      next: async () => ({ done: true, value: undefined }),
      return: async () => {
        throw new Error('async');
      },
    };
    expect(() => stopProducer(throwing)).not.toThrow();
    expect(() => streamEnd(rejecting, () => {}).stop()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection would fail the run
  });
});
