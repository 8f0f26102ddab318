import { expect } from 'vitest';
import type { HttpClient } from '../http-client.js';
import type { HttpSuiteTarget } from '../http-target.js';
import type { PushStream } from '../push-stream.js';
import { readStreamText, readStreamToEnd } from '../read-stream.js';
import { type CaseGroup, group } from './group.js';

/** What the streamed cases drive: the streams the server opens, and the server itself. */
export interface StreamControl {
  /** The next stream the server opened (`GET /streamed`). */
  opened(): Promise<PushStream>;
  /** The running target, with the adapter's graceful `shutdown`. */
  target(): HttpSuiteTarget;
}

const EVENTS = { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' };
/** A chunk far larger than any write buffer's watermark, and than one pull of a body reader. */
const LARGE = `data: ${'x'.repeat(256 * 1024 - 8)}\n\n`;
/**
 * How many pulls a client that reads nothing may cause at most: what the socket buffers of both
 * ends and the client's body queue hold (a few MiB on loopback), with a wide margin.
 */
const PULL_BOUND = 100;
/** How long the producer is left unasked before the test calls it held back (never asserted on). */
const QUIET_MS = 500;

/** Opens `GET /streamed` as an event stream: the response (its head only) and the server's stream. */
async function open(api: HttpClient, control: StreamControl, signal?: AbortSignal) {
  const response = await fetch(api.url('/streamed'), { headers: EVENTS, signal });
  const stream = await control.opened();
  return { response, stream, reader: (response.body as ReadableStream<Uint8Array>).getReader() };
}

/** Whether the producer is asked for a chunk before it is left alone for {@link QUIET_MS}. */
function asked(stream: PushStream): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), QUIET_MS);
  });
  return Promise.race([stream.asking().then(() => true as const), quiet]).finally(() => clearTimeout(timer));
}

/**
 * A body written as it is produced (live events' `text/event-stream`), through the adapter
 * under test: the API it serves answers `GET /streamed` with a stream the case feeds.
 */
export function streamCases(control: StreamControl): CaseGroup {
  return group('streamed responses', async () => undefined, {
    'a stream: the status and headers arrive before any chunk, unframed by a length and never compressed': async (
      api,
    ) => {
      const { response, stream, reader } = await open(api, control);
      // Nothing was pushed yet: the head came on its own.
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('content-encoding')).toBeNull();
      stream.push('data: first\n\n');
      await readStreamText(reader, 'data: first\n\n');
      stream.end();
      expect(await readStreamToEnd(reader)).toBe(0);
    },

    'a stream: each chunk arrives as it is pushed, before the stream ends': async (api) => {
      const { stream, reader } = await open(api, control);
      for (const chunk of ['data: one\n\n', ': a comment\n\n', 'id: 3\nevent: updated\ndata: {"é": "ü"}\n\n']) {
        stream.push(chunk);
        await readStreamText(reader, chunk);
      }
      expect(stream.returned).toBe(false);
      stream.end();
      expect(await readStreamToEnd(reader)).toBe(0);
    },

    'a stream: the iteration ending ends the response, the connection then serves the next request': async (api) => {
      const { stream, reader } = await open(api, control);
      stream.push('data: last\n\n');
      stream.end();
      await readStreamText(reader, 'data: last\n\n');
      expect(await readStreamToEnd(reader)).toBe(0);
      expect(stream.returned).toBe(false);
      expect((await api.get('/books')).status).toBe(200);
    },

    'a stream: the client going away stops the producer (its return())': async (api) => {
      const aborted = new AbortController();
      const { stream, reader } = await open(api, control, aborted.signal);
      stream.push('data: one\n\n');
      await readStreamText(reader, 'data: one\n\n');
      aborted.abort();
      await stream.stopped(); // the case's timeout bounds it
      expect(stream.returned).toBe(true);
    },

    'a stream: a client that reads nothing holds the producer back (backpressure)': async (api) => {
      const { stream, reader } = await open(api, control);
      let pushed = 0;
      // Feed each pull a large chunk until the producer is no longer asked.
      while (stream.pulls <= PULL_BOUND && (await asked(stream))) {
        stream.push(LARGE);
        pushed += 1;
      }
      expect(stream.pulls, `pulled ${stream.pulls} times with nothing read`).toBeLessThan(PULL_BOUND);
      // Reading resumes the pulls: it was held back, not stuck. Every byte pushed arrives.
      const pulls = stream.pulls;
      const read = readStreamToEnd(reader);
      await stream.pulled(pulls + 1);
      stream.end();
      expect(await read).toBe(pushed * new TextEncoder().encode(LARGE).byteLength);
    },

    'a stream: the producer failing cuts the response short': async (api) => {
      const { stream, reader } = await open(api, control);
      stream.push('data: one\n\n');
      await readStreamText(reader, 'data: one\n\n');
      stream.fail(new Error('the producer failed (as the test wants)'));
      await expect(readStreamToEnd(reader)).rejects.toThrow();
      expect((await api.get('/books')).status).toBe(200); // the server goes on serving
    },

    // Last: the server is shut down after it.
    'a stream: the graceful shutdown ends an open stream and completes': async (api) => {
      const { stream, reader } = await open(api, control);
      stream.push('data: one\n\n');
      await readStreamText(reader, 'data: one\n\n');
      const { shutdown } = control.target();
      expect(shutdown, 'the target has no shutdown (the adapter’s graceful close)').toBeTypeOf('function');
      await shutdown?.(); // it never returned if it waited for the stream to end on its own
      expect(stream.returned).toBe(true);
      expect(await readStreamToEnd(reader)).toBe(0); // ended, not reset
    },
  });
}
