// The examples of docs/openapi.md: the served document and page, and the document in a file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app } from './openapi-options.js';
import { writeDocument } from './write-openapi.js';

let target: HttpSuiteTarget;
beforeAll(async () => {
  target = await serveHttp(app);
});
afterAll(() => target.close());

describe('the OpenAPI document', () => {
  it('is served with the given title and version, and so is the docs page', async () => {
    const document = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
    expect(document.info).toMatchObject({ title: 'Books API', version: '1.4.0' });
    const page = await fetch(`${target.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Books API</title>');
  });

  it('is written to a file, the same as served', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeDocument(path);
    const served = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(served);
  });
});
