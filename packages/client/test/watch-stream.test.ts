import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ResourceError, type ResourceType, resourceClient, type WatchEvent } from '../src/index.js';

// `watch` against a server that answers what each test scripts, over real HTTP: how the stream
// is cut into chunks, what the client does with odd events, with the end of a stream, and with
// answers that are not a stream.

type Answer = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
type Book = ResourceType<{ name: string }, 'book'>;
type BookEvent = WatchEvent<{ id: number; name: string }, number>;

let target: HttpSuiteTarget | undefined;
afterEach(() => target?.close());

/** A server answering its n-th request with `answers[n]` (the last one after that); it keeps each request's headers. */
async function scripted(answers: Answer[]) {
  const requests: IncomingHttpHeaders[] = [];
  target = await serveHttp((req, res) => {
    requests.push(req.headers);
    void (answers[requests.length - 1] ?? (answers.at(-1) as Answer))(req, res);
  });
  const events: BookEvent[] = [];
  const errors: unknown[] = [];
  const books = resourceClient<Book>({ baseUrl: target.baseUrl, name: 'book' });
  return { books, requests, events, errors, onError: (error: unknown) => errors.push(error) };
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
/** Answers a stream written in these chunks (strings or bytes), then ended, or kept open. */
const stream =
  (chunks: (string | Uint8Array)[], keepOpen = false): Answer =>
  async (_req, res) => {
    res.writeHead(200, SSE);
    for (const chunk of chunks) {
      res.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 5)); // separate reads on the client
    }
    if (!keepOpen) res.end();
  };
const problem =
  (status: number, code: string): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: 'No', status, detail: 'Not now', code }));
  };

describe('watch over a scripted server', () => {
  it('reads events cut anywhere (mid-line, mid-character, CRLF), skips comments and unknown event types', async () => {
    const data = JSON.stringify({ book: { id: 1, name: 'Dünë' } });
    const bytes = new TextEncoder().encode(`id: a-1\r\nevent: created\r\ndata: ${data}\r\n\r\n`);
    const umlaut = bytes.indexOf(0xc3); // the first byte of "ü": the next chunk starts inside the character
    const { books, events, errors, onError } = await scripted([
      stream(
        [
          'retry: 5\r\n\r\n: hello\r\n\r\nevent: someday\r\ndata: {}\r\n\r\n',
          bytes.slice(0, umlaut + 1),
          bytes.slice(umlaut + 1),
          'id: a-2\nevent: destroyed\nda',
          'ta: {"book":{"id":1}}\n\n',
        ],
        true,
      ),
    ]);
    const watch = books.watch({}, (event) => events.push(event), { onError });
    await expect.poll(() => events.length).toBe(2);
    expect(events).toEqual([
      { type: 'created', record: { id: 1, name: 'Dünë' }, eventId: 'a-1' },
      { type: 'destroyed', id: 1, eventId: 'a-2' },
    ]);
    expect(errors).toEqual([]);
    watch.close();
    await watch.done;
  });

  it("reconnects after the server's retry when the stream ends, sending Last-Event-ID, and stops on a 401", async () => {
    const { books, events, requests, errors, onError } = await scripted([
      stream(['retry: 5\n\nid: a-1\nevent: created\ndata: {"book":{"id":1,"name":"A"}}\n\nid: a-2\n\n']),
      stream(['id: a-3\nevent: updated\ndata: {"book":{"id":1,"name":"B"}}\n\n']),
      problem(401, 'unauthorized'),
    ]);
    const watch = books.watch({ filter: { name: 'A' } }, (event) => events.push(event), {
      onError,
      lastEventId: 'a-0',
    });
    const stopped = await watch.done.catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ResourceError);
    expect((stopped as ResourceError).status).toBe(401);
    expect(events.map((event) => event.type)).toEqual(['created', 'updated']);
    // The id of a message without data counts too (a-2).
    expect(requests.map((headers) => headers['last-event-id'])).toEqual(['a-0', 'a-2', 'a-3']);
    expect(requests.every((headers) => headers.accept === 'text/event-stream')).toBe(true);
    expect(errors.at(-1)).toBe(stopped);
    expect(watch.lastEventId).toBe('a-3');
  });

  it('retries a 500 and goes on; reports data that is not the expected JSON, and errors onEvent throws, without stopping', async () => {
    const { books, events, errors, onError } = await scripted([
      problem(500, 'internal_error'),
      stream(
        [
          'retry: 5\n\nevent: created\ndata: not json\n\n',
          'event: updated\ndata: {"other":{}}\n\n',
          'event: created\ndata: {"book":{"id":2,"name":"Throw"}}\n\n',
          'event: created\ndata: {"book":{"id":3,"name":"C"}}\n\n',
        ],
        true,
      ),
    ]);
    const watch = books.watch(
      undefined,
      (event) => {
        if (event.type === 'created' && event.record.name === 'Throw') throw new Error('a bug in onEvent');
        events.push(event);
      },
      { onError, maxDelay: 10 },
    );
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toEqual({ type: 'created', record: { id: 3, name: 'C' }, eventId: '' });
    expect(errors.map((error) => (error instanceof ResourceError ? error.status : (error as Error).name))).toEqual([
      500,
      'SyntaxError',
      'TypeError',
      'Error',
    ]);
    watch.close();
    await watch.done;
  });

  it('stops when a 200 is not text/event-stream (a proxy or an old server answering JSON)', async () => {
    const { books, requests } = await scripted([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"books":[]}');
      },
    ]);
    const watch = books.watch({}, () => {});
    const stopped = await watch.done.catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ResourceError);
    expect((stopped as ResourceError).code).toBe('unexpected_response');
    expect(requests).toHaveLength(1);
  });

  it('close() while waiting to reconnect: done resolves and no request follows', async () => {
    const { books, requests, errors, onError } = await scripted([stream(['retry: 60000\n\n'])]);
    const watch = books.watch({}, () => {}, { onError });
    await expect.poll(() => errors.length).toBe(1); // the stream ended: waiting a minute to reconnect
    watch.close();
    await watch.done;
    expect(requests).toHaveLength(1);
  });
});
