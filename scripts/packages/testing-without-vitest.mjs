// @resourcery/testing's helpers in a project without Vitest: createTestContext and callApi under
// node:test, through `import` and `require`. Vitest is an optional peer of the package, needed by
// `@resourcery/testing/suites` only, so npm must not install it here.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, npmInstall, rootManifest, run } from './support.mjs';

const TEST = (load) => `${load}

class Book {}
IsString()(Book.prototype, 'name');
const requireUser = (ctx) => {
  const user = ctx.request.headers['x-user'];
  if (!user) throw new UnauthorizedError('who are you?');
  ctx.state.user = user;
};
const books = defineResource({ name: 'book', model: Book, hooks: { before: { create: requireUser } } });

test('a hook, on a context as the lifecycle builds it', async () => {
  const ctx = createTestContext(books, 'create', { state: {}, headers: { 'x-user': 'alice' } });
  await requireUser(ctx);
  assert.equal(ctx.state.user, 'alice');
});

test('the whole API, called in process', async () => {
  const api = createApi({ resources: [books], store: memoryStore() });
  const body = { name: 'Dune' };
  const created = await callApi(api, { method: 'POST', path: '/books', headers: { 'x-user': 'alice' }, body });
  assert.equal(created.status, 200);
  assert.deepEqual(created.body, { book: { id: 1, name: 'Dune' } });
  const refused = await callApi(api, { method: 'POST', path: '/books', body });
  assert.equal(refused.status, 401);
});
`;

export function checkTestingWithoutVitest(work, tarballs) {
  const project = join(work, 'testing-without-vitest');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'testing-without-vitest', private: true }));
  const versions = rootManifest.devDependencies;
  const registry = ['class-validator', 'reflect-metadata'].map((name) => `${name}@${versions[name]}`);
  npmInstall([tarballs.get('@resourcery/core'), tarballs.get('@resourcery/testing'), ...registry], project);
  if (existsSync(join(project, 'node_modules/vitest'))) fail('installing @resourcery/testing installed vitest');
  writeFileSync(
    join(project, 'helpers.test.mjs'),
    TEST(`import assert from 'node:assert/strict';
import { test } from 'node:test';
import 'reflect-metadata';
import { createApi, defineResource, memoryStore, UnauthorizedError } from '@resourcery/core';
import { callApi, createTestContext } from '@resourcery/testing';
import { IsString } from 'class-validator';`),
  );
  writeFileSync(
    join(project, 'helpers.test.cjs'),
    TEST(`const assert = require('node:assert/strict');
const { test } = require('node:test');
require('reflect-metadata');
const { createApi, defineResource, memoryStore, UnauthorizedError } = require('@resourcery/core');
const { callApi, createTestContext } = require('@resourcery/testing');
const { IsString } = require('class-validator');`),
  );
  const report = run('node', ['--test', '--test-reporter=dot', 'helpers.test.mjs', 'helpers.test.cjs'], project);
  if (!report.includes('.')) fail(`node --test printed ${report}`);
  console.log('@resourcery/testing: createTestContext and callApi run under node:test, without Vitest installed');
}
