import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeConformanceSuite } from '@resourcery/core/testing';
import { sqlStore } from '@resourcery/sql';
import { afterAll } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

storeConformanceSuite('SQLite file', () => sqlStore(`sqlite:${join(folder, 'suite.sqlite')}`));
storeConformanceSuite('SQLite in memory', () => sqlStore('sqlite::memory:'));
