// Both ways to one error shape on Express, over HTTP: the app's own shape with forwardErrors, or
// problem+json everywhere on the API's routes with the API mounted before express.json().
import { memoryStore } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { appShapedErrors, problemJsonApi } from './express-errors.js';

let target: HttpSuiteTarget | undefined;
afterEach(() => target?.close());

/** POSTs raw text as JSON; answers the status, the content type and the parsed body. */
async function post(path: string, text: string) {
  const reply = await fetch(`${target?.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  return { status: reply.status, type: reply.headers.get('content-type') ?? '', body: await reply.json() };
}

const BROKEN = '{"text":';
const HUGE = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) });

describe('express.json() in front, forwardErrors: true', () => {
  it("answers the API's errors and express.json()'s in the app's one shape", async () => {
    target = await serveHttp(appShapedErrors(memoryStore()), '');
    for (const [path, text, status] of [
      ['/api/notes', BROKEN, 400], // refused by express.json()
      ['/api/notes', HUGE, 413], // refused by express.json()
      ['/api/notes', '{}', 422], // refused by the API
      ['/api/notes/7', '{}', 405], // refused by the API: a record is not created by POST
      ['/feedback', BROKEN, 400], // the app's own route
    ] as const) {
      const reply = await post(path, text);
      expect(reply.status, `${path} ${text.slice(0, 20)}`).toBe(status);
      expect(reply.type).toMatch(/^application\/json/);
      expect(reply.body).toEqual({ error: { status: reply.status, message: expect.any(String) } });
    }
    expect((await post('/api/notes', '{"text":"Hi"}')).body).toEqual({ note: { id: 1, text: 'Hi' } });
  });
});

describe('the API mounted before express.json()', () => {
  it("answers every error of the API's routes as problem+json", async () => {
    target = await serveHttp(problemJsonApi(memoryStore()), '');
    for (const [text, status] of [
      [BROKEN, 400],
      [HUGE, 413],
      ['{}', 422],
    ] as const) {
      const reply = await post('/api/notes', text);
      expect(reply.status).toBe(status);
      expect(reply.type).toMatch(/^application\/problem\+json/);
      expect(reply.body).toMatchObject({ status, code: expect.any(String), detail: expect.any(String) });
    }
    expect((await post('/feedback', '{"a":1}')).body).toEqual({ received: { a: 1 } });
    expect((await post('/feedback', BROKEN)).body).toEqual({ error: { status: 400, message: expect.any(String) } });
  });
});
