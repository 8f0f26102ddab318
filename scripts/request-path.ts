// Lists the source files of packages/ one request runs code in: the request path a newcomer walks.
// `npx tsx scripts/request-path.ts [METHOD] [PATH] [JSON]` (default: a PATCH of a library book on
// Express over SQLite). V8's precise coverage counts the functions each request calls; the
// counts of warm-up requests are taken first, so only the measured request's files are listed.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlStore } from '@resourcery/sql';
import { createApp } from '../examples/library/src/app.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const [method = 'PATCH', path = '/api/books/1', body = '{"title": "Dune Messiah"}'] = process.argv.slice(2);

const folder = mkdtempSync(join(tmpdir(), 'request-path-'));
const app = createApp(sqlStore(`sqlite:${join(folder, 'library.sqlite')}`));
await app.ready();
const server = createServer(app).listen(0);
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as { port: number };
const call = (verb: string, url: string, json?: string) =>
  fetch(`http://127.0.0.1:${port}${url}`, {
    method: verb,
    headers: json ? { 'content-type': 'application/json' } : {},
    body: json,
  }).then(async (reply) => ({ status: reply.status, text: await reply.text() }));

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
// Warm-up: the data the request needs, and the same request once, so that start-up code is not counted.
await call('POST', '/api/authors', '{"name": "Frank Herbert"}');
await call('POST', '/api/books', '{"title": "Dune", "authorId": 1}');
await call(method, path, body);
await session.post('Profiler.takePreciseCoverage');
const answer = await call(method, path, body);
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');

const files = new Set<string>();
for (const script of result) {
  if (!script.url.startsWith('file://')) continue;
  const file = relative(root, fileURLToPath(script.url));
  if (!/^(packages|examples)\/[^/]+\/src\//.test(file)) continue;
  if (script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) files.add(file);
}
console.log(`${method} ${path} → ${answer.status}; ${files.size} source files ran:`);
for (const file of [...files].sort()) console.log(`  ${file}`);
server.close();
await app.close();
rmSync(folder, { recursive: true, force: true });
