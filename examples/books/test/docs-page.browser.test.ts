import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

// The docs page in a real headless Chromium (Debian's `chromium` package). CI installs it
// (.ci/run) and must run this test; elsewhere a missing browser skips it with one line.
// CHROMIUM_PATH names the browser; else the first of these names found on the PATH.
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const CHROMIUM =
  process.env.CHROMIUM_PATH ||
  (process.env.PATH ?? '')
    .split(delimiter)
    .flatMap((folder) => NAMES.map((name) => join(folder, name)))
    .find((candidate) => existsSync(candidate)) ||
  '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const available = existsSync(CHROMIUM);
const required = process.env.CI === 'true';
if (!available && !required) {
  console.warn(`docs page browser test skipped: no ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

if (!available && required) {
  it('has Chromium to test the docs page with (CI=true)', () => {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium), or set CHROMIUM_PATH`,
    );
  });
}

describe.runIf(available)('the docs page in Chromium', () => {
  let target: HttpSuiteTarget;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const foreign: string[] = [];

  beforeAll(async () => {
    target = await serveHttp(createApp(memoryStore()));
    for (const book of [
      { name: 'Dune', author: 'Frank Herbert' },
      { name: 'Emma', author: 'Jane Austen' },
    ]) {
      const created = await fetch(`${target.baseUrl}/books`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(book),
      });
      expect(created.status).toBe(200);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    // No CDN: everything the page loads comes from the API's own server.
    const origin = new URL(target.baseUrl).origin;
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${target.baseUrl}/docs`, { waitUntil: 'load' });
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await target?.close();
  });

  it('loads without console errors, from the API server only', async () => {
    expect(await page.locator('.info .title').textContent()).toContain('Books API');
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('shows the five book operations', async () => {
    const blocks = page.locator('.opblock');
    await expect.poll(() => blocks.count()).toBe(5);
    const operations = await blocks.evaluateAll((elements) =>
      elements.map((element) => {
        const method = element.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = element.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method} ${path}`;
      }),
    );
    expect(operations.sort()).toEqual(
      ['GET /books', 'POST /books', 'GET /books/{id}', 'PATCH /books/{id}', 'DELETE /books/{id}'].sort(),
    );
  });

  it('"Try it out" on the index returns the stored books, filtered as asked', async () => {
    const operation = page.locator('#operations-books-indexBooks');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('tr[data-param-name="filter[author]"] input').fill('Frank Herbert');
    await operation.getByRole('button', { name: 'Execute' }).click();

    const response = operation.locator('.live-responses-table .response').first();
    const status = response.locator('.response-col_status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toContain('200');
    const body = await response
      .locator('.response-col_description .microlight, .response-col_description pre')
      .first()
      .textContent();
    expect(JSON.parse(body ?? '')).toEqual({ books: [{ id: 1, name: 'Dune', author: 'Frank Herbert' }] });
    expect(await operation.locator('.request-url').textContent()).toContain(
      '/api/books?filter%5Bauthor%5D=Frank%20Herbert',
    );
    expect(problems).toEqual([]);
  }, 60_000);
});
