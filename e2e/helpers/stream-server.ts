// A Fetch handler under Bun (Bun.serve) or Deno (Deno.serve) whose API answers
// `GET /api/streamed` with a stream that the test feeds over HTTP, through `/control/...`:
// e2e/fetch-runtimes.test.ts checks with it how @resourcery/fetch streams a body on each runtime.
// Bundled from the workspace sources by the test; prints its URL as the example's server does.
import process from 'node:process';
import { createApi, memoryStore } from '@resourcery/core';
import { createFetchHandler } from '@resourcery/fetch';
import { bookResource, type PushStream, streamingApi } from '@resourcery/testing';

type FetchHandler = (request: Request) => Promise<Response>;
interface Runtimes {
  Bun?: { serve(options: { port: number; fetch: FetchHandler }): { port: number; stop(): Promise<void> } };
  Deno?: {
    serve(
      options: { port: number; onListen(address: { port: number }): void },
      handler: FetchHandler,
    ): { shutdown(): Promise<void> };
  };
}

/** A chunk far larger than the runtime's write buffers. */
const LARGE = `data: ${'x'.repeat(256 * 1024 - 8)}\n\n`;

const options = { resources: [bookResource()], store: memoryStore(), basePath: '/api' };
const streaming = streamingApi(createApi(options));
const handler = createFetchHandler(options, streaming.api);
let current: PushStream | undefined;
let next = streaming.opened();

const text = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** Resolves with whether the producer asks for a chunk within `ms` (left alone that long: held back). */
function asked(stream: PushStream, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([stream.asking().then(() => true as const), quiet]).finally(() => clearTimeout(timer));
}

/** The test's side: feeds the stream last opened and tells what the adapter did with it. */
async function control(action: string, request: Request): Promise<Response> {
  if (action === 'next') {
    // Waits for the stream of the request the client just sent.
    current = await next;
    next = streaming.opened();
  }
  const stream = current;
  if (!stream) return new Response('no stream is open', { status: 409 });
  if (action === 'push') stream.push(await request.text());
  else if (action === 'end') stream.end();
  else if (action === 'stopped') await stream.stopped();
  else if (action === 'flood') {
    // Feeds each pull a large chunk until the producer is no longer asked (or 100 pulls).
    let pushed = 0;
    while (stream.pulls <= 100 && (await asked(stream, 500))) {
      stream.push(LARGE);
      pushed += 1;
    }
    return text({ pulls: stream.pulls, pushed, bytes: pushed * new TextEncoder().encode(LARGE).byteLength });
  }
  return text({ pulls: stream.pulls, returned: stream.returned });
}

const serve: FetchHandler = (request) => {
  const { pathname } = new URL(request.url);
  return pathname.startsWith('/control/') ? control(pathname.slice('/control/'.length), request) : handler(request);
};

const { Bun, Deno } = globalThis as Runtimes;
const port = Number(process.env.PORT ?? 0);
const server = await new Promise<{ port: number; close(): Promise<void> }>((resolve) => {
  if (Bun) {
    const served = Bun.serve({ port, fetch: serve });
    resolve({ port: served.port, close: () => served.stop() });
  } else if (Deno) {
    const served = Deno.serve(
      { port, onListen: (address) => resolve({ port: address.port, close: () => served.shutdown() }) },
      serve,
    );
  } else throw new Error('stream-server runs under Bun or Deno');
});
console.log(`Streaming on http://localhost:${server.port}/api/streamed`);

process.on('SIGTERM', async () => {
  // The runtime's graceful stop waits for the requests in flight: the open streams end first.
  const closed = server.close();
  handler.closeStreams();
  await closed;
  console.log('shut down');
  process.exit(0);
});
