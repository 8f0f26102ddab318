import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreUnavailable } from '@resourcery/core/store';
import { parseDatabaseUrl, redactUrl, sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';

describe('database URLs', () => {
  it.each([
    ['sqlite:data/books.sqlite', 'sqlite', 'data/books.sqlite'],
    ['sqlite:///var/lib/books.sqlite', 'sqlite', '/var/lib/books.sqlite'],
    ['sqlite::memory:', 'sqlite', ':memory:'],
    ['postgres://u:p@db:5432/books', 'postgres', 'postgres://u:p@db:5432/books'],
    ['postgresql://db/books', 'postgres', 'postgresql://db/books'],
    ['mysql://root@db/books', 'mysql', 'mysql://root@db/books'],
    ['mariadb://root@db/books', 'mariadb', 'mysql://root@db/books'],
  ])('%s', (url, dialect, location) => {
    expect(parseDatabaseUrl(url)).toEqual({ dialect, location });
  });

  it('refuses other schemes without repeating the password', () => {
    expect(() => parseDatabaseUrl('oracle://scott:tiger@db/x')).toThrow(/oracle:\/\/scott:\*\*\*@db\/x/);
    expect(() => sqlStore('books.sqlite')).toThrow(/Unsupported database URL/);
  });

  it('redacts passwords', () => {
    expect(redactUrl('postgres://app:s3cr:et@db/books')).toBe('postgres://app:***@db/books');
    expect(redactUrl('mysql://root@db/books')).toBe('mysql://root@db/books');
    expect(redactUrl('sqlite:data/b.sqlite')).toBe('sqlite:data/b.sqlite');
  });
});

describe('a Kysely instance of your own', () => {
  it('is used as it is: its dialect detected, left open on close', async () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const store = sqlStore(db, { tablePrefix: 'api_' });
    expect(store.dialect).toBe('sqlite');
    const schema = {
      name: 'notes',
      attributes: [{ name: 'id', type: 'integer' as const, nullable: false }],
      indexed: [],
    };
    const notes = store.collection(schema);
    await store.init([schema]);
    expect(await notes.create({})).toEqual({ id: 1 });
    await store.close();
    const { rows } = await sql<{ n: number }>`select count(*) as n from api_notes`.execute(db);
    expect(rows[0]?.n).toBe(1);
    await db.destroy();
  });
});

describe('a SQLite file that cannot be opened', () => {
  it('makes init and queries fail with StoreUnavailable', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'resourcery-cantopen-'));
    writeFileSync(join(folder, 'file'), '');
    const store = sqlStore(`sqlite:${join(folder, 'file', 'books.sqlite')}`); // a folder that is a file
    const schema = {
      name: 'books',
      attributes: [{ name: 'id', type: 'integer' as const, nullable: false }],
      indexed: [],
    };
    const books = store.collection(schema);
    await expect(store.init([schema])).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(books.find(1, [])).rejects.toBeInstanceOf(StoreUnavailable);
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });
});
