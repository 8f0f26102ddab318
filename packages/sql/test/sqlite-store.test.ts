import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlStore } from '@resourcery/sql';
import { storeConformanceSuite } from '@resourcery/testing';
import { afterAll } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

storeConformanceSuite('SQLite file', () => sqlStore(`sqlite:${join(folder, 'suite.sqlite')}`));
storeConformanceSuite('SQLite in memory', () => sqlStore('sqlite::memory:'));
