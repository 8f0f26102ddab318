// The cost of judging JSON numbers on the text the client wrote (issue 25, item 3): µs per create
// through `api.handle()` over the memory store, for a resource with a 2-place decimal `price` and
// a json `meta`, as the node:http adapter hands bodies over. A body whose decimal is a string and
// whose json holds no number never reads its text twice; the others re-read it with lossless-json
// (its strings emptied first). Usage:
//   npm run build && node bench/micro-numbers.mjs [case,...]
// CORE=<path to another build's dist/> compares two builds of @resourcery/core.
import 'reflect-metadata';
import { Readable } from 'node:stream';
import { toNeutralRequest } from '@resourcery/node';
import { IsDecimal, IsObject, IsOptional, IsString } from 'class-validator';

const core = process.env.CORE;
const { createApi, defineResource, memoryStore } = await import(core ? `${core}/index.js` : '@resourcery/core');

class Item {}
IsString()(Item.prototype, 'title');
IsOptional()(Item.prototype, 'price');
IsDecimal({ decimal_digits: '0,2' })(Item.prototype, 'price');
IsOptional()(Item.prototype, 'meta');
IsObject()(Item.prototype, 'meta');

const items = defineResource({ name: 'item', model: Item });
const api = createApi({ resources: [items], store: memoryStore() });
await api.ready();

const HEADERS = { host: '127.0.0.1', 'content-type': 'application/json', accept: '*/*' };
function post(text) {
  const stream = new Readable({ read() {} });
  stream.push(Buffer.from(text));
  stream.push(null);
  Object.assign(stream, { method: 'POST', headers: { ...HEADERS, 'content-length': String(Buffer.byteLength(text)) } });
  return api.handle(toNeutralRequest(stream, { basePath: '/api', path: '/items', rawQuery: '' }));
}

const long = 'x'.repeat(500_000);
const manyNumbers = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i * 1.5])));
const bodies = {
  'price-string': '{"title":"A new book","price":"19.99"}',
  'price-number': '{"title":"A new book","price":19.99}',
  'price-exponent': '{"title":"A new book","price":1.999e1}',
  'meta-no-number': '{"title":"A new book","meta":{"tags":["a","b"],"ok":true}}',
  'meta-numbers': '{"title":"A new book","meta":{"pages":412,"ratio":1.5,"dims":[12.5,20]}}',
  'meta-500k-string': `{"title":"A new book","meta":{"text":"${long}"}}`,
  'meta-500k-string+number': `{"title":"A new book","meta":{"text":"${long}","n":1}}`,
  'meta-20k-numbers': `{"title":"A new book","meta":${manyNumbers}}`,
};

const only = process.argv[2]?.split(',') ?? Object.keys(bodies);
for (const name of only) {
  const text = bodies[name];
  if (!text) throw new Error(`unknown case ${name}: ${Object.keys(bodies).join(', ')}`);
  const check = await post(text);
  if (check.status !== 200) throw new Error(`${name} answered ${check.status}: ${check.body.slice(0, 300)}`);
  const calls = text.length > 10_000 ? 40 : 20_000;
  for (let i = 0; i < calls / 4; i++) await post(text);
  const perCall = [];
  for (let round = 0; round < 9; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await post(text);
    perCall.push(Number(process.hrtime.bigint() - start) / calls / 1000);
  }
  perCall.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(24)} ${perCall[4].toFixed(1)} µs per create (median of 9 rounds; fastest ${perCall[0].toFixed(1)})`,
  );
}
