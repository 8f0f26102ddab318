import { ConstraintViolation } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { librarySchemas } from '@resourcery/testing/suites';
import Database from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

// A zone ahead of UTC, where a local midnight is the day before in UTC: pg's default DATE parser
// makes a local midnight, and mysql2 by default reads DATETIME as a local wall time.
process.env.TZ = 'Asia/Tokyo';

const schemas = librarySchemas('ki');
const CREATED = '2024-01-01T00:00:00.000Z';

/** Writes an author and a book through a store over the application's own Kysely instance, and reads them back. */
// biome-ignore lint/suspicious/noExplicitAny: any database
async function roundTrip(db: Kysely<any>, tablePrefix: string) {
  const store = droppingTables(sqlStore(db, { tablePrefix }), tablePrefix);
  const [authors, books] = [schemas.authors, schemas.books].map((schema) => store.collection(schema));
  try {
    await store.init([schemas.authors, schemas.books]);
    const author = await (authors as NonNullable<typeof authors>).create({ name: 'A', born: '2024-03-10' });
    const book = await (books as NonNullable<typeof books>).create({
      title: 'T',
      authorId: author.id,
      publishedAt: '2024-03-10T04:30:00.000Z',
      createdAt: CREATED,
    });
    const missing = await (books as NonNullable<typeof books>)
      .create({ title: 'U', authorId: 99, createdAt: CREATED })
      .catch((error: unknown) => error);
    return { author: await authors?.find(author.id, []), book: await books?.find(book.id, []), missing };
  } finally {
    await store.close();
  }
}

describe('a Kysely instance made by the application', () => {
  it('SQLite: init turns foreign keys on for its connection', async () => {
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      const { author, book, missing } = await roundTrip(db, '');
      expect(author?.born).toBe('2024-03-10');
      expect(book?.publishedAt).toBe('2024-03-10T04:30:00.000Z');
      expect(missing).toBeInstanceOf(ConstraintViolation);
      expect(missing).toMatchObject({ kind: 'foreign_key', field: 'authorId' });
    } finally {
      await db.destroy();
    }
  });

  if (serverAvailable('postgres')) {
    it("PostgreSQL: pg's default parsers (a DATE at local midnight) give the same values", async () => {
      const pool = new pg.Pool({ connectionString: SERVERS.postgres.url, max: 2 });
      const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
      try {
        const { author, book, missing } = await roundTrip(db, `ki${Math.random().toString(36).slice(2, 8)}_`);
        expect(author?.born).toBe('2024-03-10');
        expect(book?.publishedAt).toBe('2024-03-10T04:30:00.000Z');
        expect(missing).toMatchObject({ kind: 'foreign_key', field: 'authorId' });
      } finally {
        await db.destroy();
      }
    });
  }

  if (serverAvailable('postgres')) {
    it('PostgreSQL: a session time zone of its own (+12:45) changes nothing', async () => {
      const pool = new pg.Pool({
        connectionString: SERVERS.postgres.url,
        max: 2,
        options: '-c TimeZone=Pacific/Chatham',
      });
      const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
      try {
        const { author, book } = await roundTrip(db, `ki${Math.random().toString(36).slice(2, 8)}_`);
        expect(author?.born).toBe('2024-03-10');
        expect(book?.publishedAt).toBe('2024-03-10T04:30:00.000Z');
      } finally {
        await db.destroy();
      }
    });
  }

  if (serverAvailable('mariadb')) {
    it('MariaDB: a pool that reads DATETIME in local time is refused at init; with UTC it works', async () => {
      const local = new Kysely({ dialect: new MysqlDialect({ pool: createPool({ uri: SERVERS.mariadb.url }) }) });
      try {
        await expect(sqlStore(local).init([])).rejects.toThrow(/dateStrings: true/);
      } finally {
        await local.destroy();
      }
      const pool = createPool({ uri: SERVERS.mariadb.url, timezone: 'Z' });
      const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
      try {
        const { author, book, missing } = await roundTrip(db, `ki${Math.random().toString(36).slice(2, 8)}_`);
        expect(author?.born).toBe('2024-03-10');
        expect(book?.publishedAt).toBe('2024-03-10T04:30:00.000Z');
        expect(missing).toMatchObject({ kind: 'foreign_key', field: 'authorId' });
      } finally {
        await db.destroy();
      }
    });
  }
});
