import 'reflect-metadata';
import { bookResource } from '@resourcery/testing';
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import type { Logger } from '../src/api/logger.js';
import { memoryStore } from '../src/store/memory-store.js';

function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message?: string }[] = [];
  const at = (level: string) => (fields: object, message?: string) => {
    lines.push({ level, fields: fields as Record<string, unknown>, message });
  };
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

const request = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => ({
  method,
  path,
  basePath: '/api',
  rawQuery: '',
  headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  parsedBody: body,
});

describe('logger', () => {
  it('logs one line per request with its id, sent back as X-Request-Id, and gives it to hooks', async () => {
    const { logger, lines } = recordingLogger();
    let seen: string | undefined;
    const book = bookResource({
      hooks: {
        before: {
          index: [
            (ctx) => {
              seen = ctx.requestId;
            },
          ],
        },
      },
    });
    const api = createApi({ resources: [book], store: memoryStore(), logger });
    const response = await api.handle(request('GET', '/books', { 'x-request-id': 'abc-123' }));
    expect(response.headers['X-Request-Id']).toBe('abc-123');
    expect(seen).toBe('abc-123');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      fields: { requestId: 'abc-123', method: 'GET', path: '/books', resource: 'book', action: 'index', status: 200 },
    });
    expect(typeof lines[0]?.fields.durationMs).toBe('number');
  });

  it('replaces an insane request id with a UUID', async () => {
    const { logger, lines } = recordingLogger();
    const api = createApi({ resources: [bookResource()], store: memoryStore(), logger });
    const response = await api.handle(request('GET', '/books', { 'x-request-id': 'a b\n<script>' }));
    expect(response.headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0]?.fields.requestId).toBe(response.headers['X-Request-Id']);
  });

  it('warns in one line for a client error, errors with the stack for a server fault', async () => {
    const { logger, lines } = recordingLogger();
    const book = bookResource({
      hooks: {
        before: {
          destroy: [
            () => {
              throw new Error('boom');
            },
          ],
        },
      },
    });
    const api = createApi({ resources: [book], store: memoryStore(), logger });
    expect((await api.handle(request('GET', '/books/999'))).status).toBe(404);
    expect((await api.handle(request('DELETE', '/books/1'))).status).toBe(500);
    expect(lines.map((line) => line.level)).toEqual(['warn', 'error']);
    expect(lines[1]?.fields.err).toBeInstanceOf(Error);
  });

  it('with rejectErrors, still logs the request once, then rejects with the mapped error', async () => {
    const { logger, lines } = recordingLogger();
    const api = createApi({ resources: [bookResource()], store: memoryStore(), logger });
    await expect(api.handle(request('GET', '/books/999'), { rejectErrors: true })).rejects.toMatchObject({
      status: 404,
    });
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ status: 404, action: 'show' }) }),
    ]);
  });

  it('without a logger, logs nothing per request and sends no X-Request-Id', async () => {
    const log = vi.spyOn(console, 'log');
    const api = createApi({ resources: [bookResource()], store: memoryStore() });
    const response = await api.handle(request('GET', '/books'));
    expect(response.headers['X-Request-Id']).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });
});
