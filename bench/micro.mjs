// The core alone, without sockets: µs per `api.handle()` of the books resource over the memory
// store (10,000 books), for show, index (page 3 of 25, counted or not), update and create
// requests as the node:http adapter builds them (the body a readable stream with a declared
// length). It tells what a change to the core costs or saves long before the HTTP benchmark can
// see it through the noise, but not what a request costs on a real server: there, caches are
// cold after the socket work and the same code takes about three times as long. Usage:
//   npm run build && node bench/micro.mjs [show,index,index-nocount,update,create]
// CORE=<path to another build's dist/> compares two builds of @resourcery/core.
import 'reflect-metadata';
import { Readable } from 'node:stream';
import { toNeutralRequest } from '@resourcery/node';
import { Book } from '../examples/books/dist/book.js';

const core = process.env.CORE;
const { createApi, defineResource, memoryStore } = await import(core ? `${core}/index.js` : '@resourcery/core');
const { compiledResource } = await import(core ? `${core}/adapter.js` : '@resourcery/core/adapter');

const books = defineResource({ name: 'book', model: Book });
const store = memoryStore();
const collection = store.collection(compiledResource(books).schema);
for (let i = 0; i < 10000; i++) await collection.create({ name: `Book ${i}`, author: `Author ${i % 100}` });
const api = createApi({ resources: [books], store });
await api.ready();

const HEADERS = { host: '127.0.0.1', 'content-type': 'application/json', accept: '*/*' };
const randomId = () => 1 + Math.floor(Math.random() * 10000);

function withBody(method, path, text) {
  const stream = new Readable({ read() {} });
  stream.push(Buffer.from(text));
  stream.push(null);
  // What the node:http adapter hands the core: the stream, and its fast reader.
  Object.assign(stream, { method, headers: { ...HEADERS, 'content-length': String(Buffer.byteLength(text)) } });
  return toNeutralRequest(stream, { basePath: '/api', path, rawQuery: '' });
}

const cases = {
  show: () =>
    api.handle({ method: 'GET', path: `/books/${randomId()}`, basePath: '/api', rawQuery: '', headers: HEADERS }),
  index: () =>
    api.handle({ method: 'GET', path: '/books', basePath: '/api', rawQuery: 'page=3&per_page=25', headers: HEADERS }),
  'index-nocount': () =>
    api.handle({
      method: 'GET',
      path: '/books',
      basePath: '/api',
      rawQuery: 'page=3&per_page=25&count=false',
      headers: HEADERS,
    }),
  update: () => api.handle(withBody('PATCH', `/books/${randomId()}`, '{"name":"The Dispossessed"}')),
  create: () => api.handle(withBody('POST', '/books', '{"name":"A new book","author":"Ursula K. Le Guin"}')),
};

const only = process.argv[2]?.split(',') ?? Object.keys(cases);
for (const name of only) {
  const run = cases[name];
  if (!run) throw new Error(`unknown case ${name}: ${Object.keys(cases).join(', ')}`);
  const check = await run();
  if (check.status !== 200) throw new Error(`${name} answered ${check.status}: ${check.body}`);
  for (let i = 0; i < 20000; i++) await run();
  const perCall = [];
  for (let round = 0; round < 9; round++) {
    const calls = 30000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await run();
    perCall.push(Number(process.hrtime.bigint() - start) / calls / 1000);
  }
  perCall.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(8)} ${perCall[4].toFixed(2)} µs per request (median of 9 rounds; fastest ${perCall[0].toFixed(2)})`,
  );
}
