// The packages from plain JavaScript, without decorator syntax (decorators applied as functions),
// through both `import` and `require`, in the quick start's project.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, run } from './support.mjs';

const plain = (load) => `
${load}
class Book {}
IsString()(Book.prototype, 'name');
IsString()(Book.prototype, 'author');
const api = createApi({ resources: [defineResource({ name: 'book', model: Book })], store: memoryStore() });
const body = (async function* () { yield '{"name":"Dune","author":"Herbert"}'; })();
api.handle({ method: 'POST', path: '/books', basePath: '/api', rawQuery: '', headers: { 'content-type': 'application/json' }, body })
  .then((response) => {
    if (response.status !== 200 || typeof resourcery !== 'function') { console.error(response); process.exit(1); }
    console.log('ok');
  });
`;

export function checkPlainJavaScript(app) {
  writeFileSync(
    join(app, 'plain.cjs'),
    plain(`const { createApi, defineResource, memoryStore } = require('@resourcery/core');
const { resourcery } = require('@resourcery/express');
const { IsString } = require('class-validator');`),
  );
  writeFileSync(
    join(app, 'plain.mjs'),
    plain(`import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { IsString } from 'class-validator';`),
  );
  for (const file of ['plain.cjs', 'plain.mjs']) {
    if (run('node', [file], app).trim() !== 'ok') fail(`${file} failed`);
  }
  console.log('plain JavaScript: require and import work');
}
