import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bearerJwt, createApi, defineResource, memoryStore } from '@resourcery/core';
import { IsString, Length } from 'class-validator';
import { build } from 'esbuild';
import { SignJWT } from 'jose';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StreamingTarget, serveStreaming } from '../packages/client/test/helpers/streaming-server.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../test-support/chromium.js';

// The built client (packages/client/dist, as users install it) in a real headless Chromium:
// `watch` reads the live events of a server with fetch and a bearer token (which EventSource
// cannot send), sees a record created through the API, and resumes with Last-Event-ID after the
// server ends the stream. And the other way: a plain EventSource with the token in a cookie
// (bearerJwt's `cookie` option).

const root = fileURLToPath(new URL('../', import.meta.url));
const available = chromiumAvailable('the client watch');

class Book {
  @IsString() @Length(1, 100) name!: string;
  @IsString() author!: string;
}
const books = defineResource({ name: 'book', model: Book, live: true });
const SECRET = 'browser-tests-secret-of-enough-length';
const TOKEN = await new SignJWT({})
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject('1')
  .sign(new TextEncoder().encode(SECRET));
const authenticate = bearerJwt({
  secret: SECRET,
  cookie: 'session',
  principal: (claims) => ({ sub: Number(claims.sub), org: 1, role: 'admin' }),
});

/** docs/live.md's browser page: docs/examples/client-watch.ts's shelf, kept in step in the page. */
const SHELF_PAGE = `<!doctype html><title>shelf</title><script type="module">
import { watchShelf } from '/shelf.js';
window.shelf = new Map();
window.changes = 0;
window.shelfWatch = watchShelf('/api', async () => '${TOKEN}', window.shelf, () => window.changes++);
</script>`;

/** The page's script: a watch whose events, openings and errors it keeps on `window`. */
const PAGE = `<!doctype html><title>watch</title><script type="module">
import { resourceClient } from '/client.js';
const books = resourceClient({ baseUrl: '/api', name: 'book', token: () => '${TOKEN}' });
window.seen = { events: [], opened: 0, errors: [] };
window.watch = books.watch({ filter: { author: 'Frank Herbert' } }, (event) => window.seen.events.push(event), {
  maxDelay: 200,
  onOpen: () => window.seen.opened++,
  onError: (error) => window.seen.errors.push(String(error)),
});
</script>`;

describe.runIf(available)('the client watch in Chromium', () => {
  let target: StreamingTarget;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // The client as it is published: built now if its sources are newer than dist/.
    await promisify(execFile)(process.execPath, ['scripts/build-if-stale.mjs', 'packages/client'], { cwd: root });
    const client = readFileSync(`${root}packages/client/dist/index.js`, 'utf8');
    const api = createApi({ resources: [books], store: memoryStore(), authenticate });
    // docs/examples/client-watch.ts for the browser, importing the built client as the page serves it.
    const shelf = await build({
      entryPoints: [`${root}docs/examples/client-watch.ts`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      plugins: [
        {
          name: 'served-client',
          setup: (builder) =>
            builder.onResolve({ filter: /^@resourcery\/client$/ }, () => ({ path: '/client.js', external: true })),
        },
      ],
    });
    target = await serveStreaming(api, {
      '/': { type: 'text/html; charset=utf-8', body: PAGE },
      '/shelf': { type: 'text/html; charset=utf-8', body: SHELF_PAGE },
      '/client.js': { type: 'text/javascript; charset=utf-8', body: client },
      '/shelf.js': { type: 'text/javascript; charset=utf-8', body: shelf.outputFiles[0]?.text ?? '' },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(new URL(target.baseUrl).origin, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await target?.close();
  });

  const seen = () =>
    page.evaluate(() => (window as unknown as { seen: { events: unknown[]; opened: number; errors: string[] } }).seen);
  const create = (book: { name: string; author: string }) =>
    fetch(`${target.baseUrl}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(book),
    });

  it('sees a created event after a POST, with the token sent as Authorization', async () => {
    await expect.poll(async () => (await seen()).opened, { timeout: 10_000 }).toBe(1);
    expect((await create({ name: 'Emma', author: 'Jane Austen' })).status).toBe(200); // not the filter's
    expect((await create({ name: 'Dune', author: 'Frank Herbert' })).status).toBe(200);
    await expect.poll(async () => (await seen()).events.length, { timeout: 10_000 }).toBe(1);
    expect((await seen()).events[0]).toEqual({
      type: 'created',
      record: { id: 2, name: 'Dune', author: 'Frank Herbert' },
      eventId: expect.any(String),
    });
    expect(target.eventRequests[0]).toMatchObject({ authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' });
    expect(problems).toEqual([]);
  });

  it('reconnects with Last-Event-ID after the server ends the stream, and misses nothing', async () => {
    const lastId = await page.evaluate(
      () => (window as unknown as { watch: { lastEventId: string } }).watch.lastEventId,
    );
    target.dropStreams();
    expect((await create({ name: 'Dune Messiah', author: 'Frank Herbert' })).status).toBe(200);
    await expect.poll(async () => (await seen()).events.length, { timeout: 10_000 }).toBe(2);
    expect((await seen()).opened).toBe(2);
    expect(target.eventRequests[1]?.['last-event-id']).toBe(lastId);
    await page.evaluate(() => (window as unknown as { watch: { close(): void } }).watch.close());
    await expect.poll(() => target.openStreams()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("an EventSource, which sends no header, authenticates with bearerJwt's cookie", async () => {
    const origin = new URL(target.baseUrl).origin;
    await page
      .context()
      .addCookies([{ name: 'session', value: TOKEN, url: origin, httpOnly: true, sameSite: 'Strict' }]);
    await page.evaluate(() => {
      const source = new EventSource('/api/books/events');
      const names: string[] = [];
      Object.assign(window, { source, names });
      source.addEventListener('open', () => names.push('open'));
      source.addEventListener('created', (event) => names.push(JSON.parse(event.data).book.name));
    });
    const names = () => page.evaluate(() => (window as unknown as { names: string[] }).names);
    await expect.poll(names, { timeout: 10_000 }).toEqual(['open']);
    expect(target.eventRequests.at(-1)?.authorization).toBeUndefined();
    expect((await create({ name: 'Children of Dune', author: 'Frank Herbert' })).status).toBe(200);
    await expect.poll(names, { timeout: 10_000 }).toEqual(['open', 'Children of Dune']);
    await page.evaluate(() => (window as unknown as { source: EventSource }).source.close());
    await expect.poll(() => target.openStreams()).toBe(0);
  });

  it("runs docs/live.md's browser example: the shelf of docs/examples/client-watch.ts, loaded, then kept in step", async () => {
    const shelfPage = await browser.newPage();
    shelfPage.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await shelfPage.goto(`${new URL(target.baseUrl).origin}/shelf`, { waitUntil: 'load' });
    const names = () =>
      shelfPage.evaluate(() =>
        [...(window as unknown as { shelf: Map<number, { name: string }> }).shelf.values()]
          .map((book) => book.name)
          .sort(),
      );
    // Loaded once the stream is open: the books of the earlier cases by Frank Herbert (not Jane Austen's).
    await expect.poll(names, { timeout: 10_000 }).toEqual(expect.arrayContaining(['Dune', 'Dune Messiah']));
    const loaded = await names();
    expect(loaded).not.toContain('Emma');
    expect((await create({ name: 'God Emperor of Dune', author: 'Frank Herbert' })).status).toBe(200);
    await expect.poll(names, { timeout: 10_000 }).toEqual([...loaded, 'God Emperor of Dune'].sort());
    await shelfPage.evaluate(() => (window as unknown as { shelfWatch: { close(): void } }).shelfWatch.close());
    await shelfPage.close();
    expect(problems).toEqual([]);
  });
});
