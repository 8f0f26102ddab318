// A plain CommonJS Express app from the tarballs: the resource is defined through one entry of
// @resourcery/core (`index.cjs`), mounted by @resourcery/express (which uses `adapter.cjs`), and
// stored by the memory store and by @resourcery/sql on SQLite (which use `store.cjs`). Errors
// cross those entries: a `NotFoundError` a hook throws must be a 404, a duplicate unique value a
// 422, as in ESM; a copy of the core per entry makes the first a 500 and the mount itself throw.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, npmInstall, root, rootManifest, startServer } from './support.mjs';

const APP = `'use strict';
require('reflect-metadata');
const { defineResource, memoryStore, NotFoundError } = require('@resourcery/core');
const { resourcery } = require('@resourcery/express');
const { sqlStore } = require('@resourcery/sql');
const { IsString, Length } = require('class-validator');
const express = require('express');

class Book {}
IsString()(Book.prototype, 'name');
Length(1, 100)(Book.prototype, 'name');
const books = defineResource({
  name: 'book',
  model: Book,
  unique: ['name'],
  hooks: { before: { destroy: () => { throw new NotFoundError('Books are never destroyed here'); } } },
});

const app = express();
app.use('/memory', resourcery({ resources: [books], store: memoryStore() }));
app.use('/sqlite', resourcery({ resources: [books], store: sqlStore('sqlite::memory:') }));
const server = app.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** Installs the tarballs in a CommonJS project, runs the app and checks its answers on both stores. */
export async function checkCommonJsApp(work, tarballs) {
  const project = join(work, 'commonjs-app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'commonjs-app', private: true }));
  writeFileSync(join(project, 'app.js'), APP);
  const versions = rootManifest.devDependencies;
  const registry = ['express', 'class-validator', 'reflect-metadata'].map((name) => `${name}@${versions[name]}`);
  const needed = ['@resourcery/core', '@resourcery/node', '@resourcery/express', '@resourcery/sql'];
  npmInstall([...needed.map((name) => tarballs.get(name)), ...registry], project);
  // The repository's build of the native SQLite binding, as for the docs examples.
  symlinkSync(join(root, 'node_modules/better-sqlite3'), join(project, 'node_modules/better-sqlite3'), 'dir');

  const { output, stop } = await startServer('node', ['app.js'], project, 'listening on ');
  try {
    const port = /listening on (\d+)/.exec(output)?.[1];
    for (const store of ['memory', 'sqlite']) {
      const url = `http://127.0.0.1:${port}/${store}/books`;
      const post = () =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Dune"}' });
      const expect = async (what, response, status, check = () => true) => {
        const body = await response.json().catch(() => undefined);
        if (response.status !== status || !check(body))
          fail(`CommonJS app on ${store}: ${what} answered ${response.status} ${JSON.stringify(body)}, not ${status}`);
      };
      await expect('a create', await post(), 200, (body) => body.book?.name === 'Dune');
      await expect('a duplicate unique name', await post(), 422, (body) => body.errors?.name !== undefined);
      await expect('a missing book', await fetch(`${url}/999`), 404);
      await expect('a NotFoundError thrown by a hook', await fetch(`${url}/1`, { method: 'DELETE' }), 404, (body) =>
        body.detail?.includes('never destroyed'),
      );
    }
    const docs = await fetch(`http://127.0.0.1:${port}/memory/docs`);
    if (docs.status !== 200) fail(`CommonJS app: /docs answered ${docs.status}`);
  } finally {
    stop();
  }
  console.log('CommonJS app: defined, mounted and stored through different entries; 404 and 422 on memory and SQLite');
}
