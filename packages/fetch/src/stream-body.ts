import { type ResponseStream, streamEnd } from '@resourcery/core/adapter';

/** The open streams of one handler, and whether it is shutting down (see `closeStreams`). */
export interface OpenStreams {
  closing: boolean;
  readonly ends: Set<() => void>;
}

/**
 * A streamed answer (live events) as a `ReadableStream` body: one chunk of the producer per
 * `pull`, UTF-8 encoded, at most one queued (the runtime pulls again once the client took it:
 * backpressure); `cancel` (the client went away) calls the producer's `return()` at once; the
 * iteration ending closes the body; an error the producer throws errors it (the runtime cuts the
 * response) and is logged. `open` lets the shutdown end it; a stream opened while the handler
 * shuts down ends at once.
 */
export function streamBody(stream: ResponseStream, open: OpenStreams): ReadableStream<Uint8Array> {
  const iterator = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let end = () => {};
  const ending = streamEnd(iterator, () => open.ends.delete(end));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        end = () => {
          ending.stop();
          controller.close();
        };
        if (open.closing) end();
        else open.ends.add(end);
      },
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (ending.over) return;
          if (!next.done) controller.enqueue(encoder.encode(next.value));
          else if (ending.finish()) controller.close();
        } catch (error) {
          if (!ending.finish()) return; // thrown after the client left or the shutdown: nobody to tell
          console.error('resourcery: the response stream failed', error);
          controller.error(error);
        }
      },
      cancel: ending.stop,
    },
    { highWaterMark: 1 },
  );
}
