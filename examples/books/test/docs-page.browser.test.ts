import { memoryStore } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../../../test-support/chromium.js';
import { createApp } from '../src/app.js';

// The docs page in a real headless Chromium (test-support/chromium.ts says which, and when a
// missing one skips the test).
const available = chromiumAvailable('the docs page');

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
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
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
