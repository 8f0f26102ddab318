// What every adapter does when it writes a streamed body (live events) and when it drains a
// request body it left unread: one place, so that node:http, Express and Fetch stop a producer
// and linger over a body alike.

/**
 * How long, and how much of, a request body the server left unread (a 413, a 401 before the
 * body ended) is read and discarded after the answer, so that a client still sending reads the
 * answer instead of a reset: at most 16 MiB or 5 seconds, as Apache and nginx linger.
 *
 * @example
 * ```ts
 * const timer = setTimeout(cancel, UNREAD_BODY_LINGER.ms);
 * if (discarded > UNREAD_BODY_LINGER.bytes) cancel();
 * ```
 */
export const UNREAD_BODY_LINGER: { readonly ms: number; readonly bytes: number } = Object.freeze({
  ms: 5_000,
  bytes: 16 * 1024 * 1024,
});

/**
 * Calls a producer's `return()` at once, without waiting: what it throws or rejects is dropped
 * (a producer whose `return()` fails is stopped all the same).
 *
 * @example
 * ```ts
 * if (method === 'HEAD') stopProducer(response.stream[Symbol.asyncIterator]());
 * ```
 */
export function stopProducer(iterator: AsyncIterator<unknown>): void {
  try {
    Promise.resolve(iterator.return?.()).catch(() => undefined);
  } catch {
    // Stopped all the same.
  }
}

/** The end of one streamed body: see {@link streamEnd}. */
export interface StreamEnd {
  /** Whether the body has ended, by whichever side. */
  readonly over: boolean;
  /** Ends the body once: `true` the first time (and `onEnd` ran), `false` after. */
  finish(): boolean;
  /** The client went away or the server shuts down: ends the body (once) and stops the producer. */
  readonly stop: () => void;
}

/**
 * The end of a streamed body, once, whichever of the client, the shutdown or the producer comes
 * first: `finish` when the iteration ends or throws, `stop` (also calling the producer's
 * `return()`) when the client leaves or the server shuts down. `onEnd` runs once, on the first.
 *
 * @example
 * ```ts
 * const end = streamEnd(iterator, () => res.removeListener('close', end.stop));
 * res.once('close', end.stop);
 * for (let next = await iterator.next(); !end.over && !next.done; next = await iterator.next()) res.write(next.value);
 * if (end.finish()) res.end();
 * ```
 */
export function streamEnd(iterator: AsyncIterator<unknown>, onEnd: () => void): StreamEnd {
  let over = false;
  const finish = (): boolean => {
    if (over) return false;
    over = true;
    onEnd();
    return true;
  };
  return {
    get over() {
      return over;
    },
    finish,
    stop: () => {
      if (finish()) stopProducer(iterator);
    },
  };
}
