import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';

// Until the adapters stream `text/event-stream` bodies, a few lines of `node:http` of our own:
// the API's neutral response, its stream written chunk by chunk as it comes. It records the
// headers of each events request and can drop the open streams (a server ending them).

/** A served API, the headers of its events requests, and a way to end its open streams. */
export interface StreamingTarget extends HttpSuiteTarget {
  /** The request headers of each `GET …/events`, in order. */
  readonly eventRequests: Record<string, string | undefined>[];
  /** The number of event streams open now. */
  readonly openStreams: () => number;
  /** Ends every open stream, as a server going away would (the clients reconnect). */
  dropStreams(): void;
}

/** A file served beside the API (a page, a script), by its path. */
export interface ServedFile {
  readonly type: string;
  readonly body: string;
}

/**
 * Serves `api` at `/api` on a free port of 127.0.0.1, streaming its event streams, and `files`
 * at their paths (a page and the scripts it loads, from the API's origin).
 */
export async function serveStreaming(api: Api, files: Record<string, ServedFile> = {}): Promise<StreamingTarget> {
  const eventRequests: Record<string, string | undefined>[] = [];
  const open = new Set<ServerResponse>();
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const file = files[url.pathname];
    if (file) {
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    const headers: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(req.headers)) {
      headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (url.pathname.endsWith('/events')) eventRequests.push(headers);
    const response = await api.handle({
      method: req.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      basePath: '/api',
      rawQuery: url.search.slice(1),
      headers,
      body: req,
    });
    res.writeHead(response.status, response.headers);
    if (!response.stream) {
      res.end(response.body);
      return;
    }
    const stream = response.stream[Symbol.asyncIterator]();
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      void stream.return?.();
    });
    for (;;) {
      const { done, value } = await stream.next();
      if (done || res.destroyed) break;
      res.write(value);
    }
    res.end();
  };
  const target = await serveHttp((req, res) => void listener(req, res));
  return {
    ...target,
    eventRequests,
    openStreams: () => open.size,
    dropStreams() {
      for (const res of open) res.end();
    },
    close: async () => {
      await api.close();
      await target.close();
    },
  };
}
