import { memoryStore } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

// What the example answers besides the resources: the docs page cannot be framed, the probes
// are never sniffed, and an unknown path outside /api is a problem like any other.

let target: HttpSuiteTarget;
let origin: string;
beforeAll(async () => {
  target = await serveHttp(createApp(memoryStore()));
  origin = new URL(target.baseUrl).origin;
});
afterAll(() => target.close());

describe('the example app', () => {
  it('serves the docs page and the document so that no other site can frame them', async () => {
    for (const path of ['/api/docs', '/api/docs/', '/api/openapi.json']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
    const page = await fetch(`${origin}/api/docs`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers the probes with nosniff', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('answers an unknown path outside /api with a problem+json 404, not an HTML page', async () => {
    const long = 'z'.repeat(5000);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/nope'],
      ['POST', '/healthz'],
      ['DELETE', '/books/1'],
      ['GET', `/${long}`],
    ] as const) {
      const response = await fetch(`${origin}${path}`, { method });
      expect(response.status, `${method} ${path.slice(0, 20)}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const problem = await response.json();
      expect(problem).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found' });
      expect(problem.detail.length).toBeLessThanOrEqual(200);
    }
    const head = await fetch(`${origin}/nope`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });
});
