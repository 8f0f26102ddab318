import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';

// The API served by the real `node:http` adapter (@resourcery/node), which streams event streams,
// with what the client tests look at: the headers of each events request, the streams open now,
// a way to cut them (a server going away), and files served beside the API (a page, its scripts).

/** A served API, the headers of its events requests, and a way to end its open streams. */
export interface StreamingTarget extends HttpSuiteTarget {
  /** The request headers of each `GET …/events`, in order. */
  readonly eventRequests: Record<string, string | undefined>[];
  /** The number of event streams open now. */
  readonly openStreams: () => number;
  /** Cuts every open stream, as a server going away would (the clients reconnect). */
  dropStreams(): void;
}

/** A file served beside the API (a page, a script), by its path. */
export interface ServedFile {
  readonly type: string;
  readonly body: string;
}

/**
 * Serves `api` at `/api` on a free port of 127.0.0.1 through `createListener`, and `files` at
 * their paths (a page and the scripts it loads, from the API's origin).
 */
export async function serveStreaming(api: Api, files: Record<string, ServedFile> = {}): Promise<StreamingTarget> {
  const eventRequests: Record<string, string | undefined>[] = [];
  const open = new Set<ServerResponse>();
  const adapter = createListener({ basePath: '/api' } as never, api);
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const file = files[url.pathname];
    if (file) {
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    if (url.pathname.endsWith('/events')) {
      const headers: Record<string, string | undefined> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        headers[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      eventRequests.push(headers);
      open.add(res);
      res.once('close', () => open.delete(res));
    }
    adapter(req, res);
  };
  const target = await serveHttp(listener);
  return {
    ...target,
    eventRequests,
    openStreams: () => open.size,
    dropStreams() {
      for (const res of open) res.destroy();
    },
    close: async () => {
      await api.close();
      await target.close();
    },
  };
}
