import type { ServerResponse } from 'node:http';
import { type ResponseStream, streamEnd } from '@resourcery/core/adapter';
import { closing, trackStream } from './open-streams.js';

/**
 * What is done with an error the producer of a stream threw, once the response is destroyed
 * (its head was sent: the client only sees it cut short). {@link writeResponse} takes one.
 *
 * @example
 * ```ts
 * const report: StreamErrorHandler = (error) => logger.error({ err: error }, 'live events failed');
 * writeResponse(res, await api.handle(request), report);
 * ```
 */
export type StreamErrorHandler = (error: unknown) => void;

/** The default {@link StreamErrorHandler}: `console.error`, as the core's default error logger. */
export const logStreamError: StreamErrorHandler = (error) => {
  console.error('resourcery: the response stream failed', error);
};

/** Resolves when `res` can take more (`drain`) or will take nothing more (`close`). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.removeListener('drain', done);
      res.removeListener('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * Writes a streamed body whose head `res` already has: flushes the head at once (the client
 * sees the status before the first chunk), then writes each chunk as the producer yields it,
 * asking for the next only once `res` takes more (backpressure). The client going away (`close`)
 * or the server shutting down ({@link closeServer}) calls the producer's `return()` at once; the
 * iteration ending ends the response; the producer throwing destroys it and calls `onError`.
 */
export function writeStream(res: ServerResponse, stream: ResponseStream, onError: StreamErrorHandler): void {
  const iterator = stream[Symbol.asyncIterator]();
  /** Ends this writer: once, whichever of the client, the shutdown or the producer comes first. */
  const ending = streamEnd(iterator, () => {
    untrack();
    res.removeListener('close', ending.stop);
  });
  const untrack = trackStream(res, () => {
    ending.stop();
    res.end();
  });
  res.once('close', ending.stop);
  res.socket?.setNoDelay(true);
  res.flushHeaders();
  if (closing(res) || res.req?.method === 'HEAD') {
    ending.stop();
    res.end();
    return;
  }
  const pump = async () => {
    try {
      for (let next = await iterator.next(); !ending.over && !next.done; next = await iterator.next()) {
        if (!res.write(next.value)) await drained(res);
        if (ending.over) return;
      }
      if (ending.finish()) res.end();
    } catch (error) {
      if (!ending.finish()) return; // thrown after the client left or the shutdown: nobody to tell
      res.destroy();
      onError(error);
    }
  };
  void pump();
}
