import { sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { SERVERS } from '../../packages/sql/test/helpers/databases.js';

/**
 * Creates a PostgreSQL database of its own for one test (so the example's `books` table starts
 * empty) and answers its URL and a function that drops it.
 */
export async function freshPostgresDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = sqlStore(SERVERS.postgres.url);
  const database = `${prefix}_${Math.random().toString(36).slice(2, 8)}`;
  await sql`create database ${sql.id(database)}`.execute(admin.db);
  const url = new URL(SERVERS.postgres.url);
  url.pathname = `/${database}`;
  return {
    url: url.href,
    drop: async () => {
      try {
        await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}

/**
 * A schema of its own on the PostgreSQL test server holding a `books` table without `author`,
 * and a URL whose `search_path` puts it first: the example's store finds that table. `drop`
 * removes the schema.
 */
export async function driftedPostgres(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = sqlStore(SERVERS.postgres.url);
  const schema = `${prefix}_${Math.random().toString(36).slice(2, 8)}`;
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await sql`create table ${sql.id(schema)}.books (id bigint primary key, name text not null)`.execute(admin.db);
  const url = new URL(SERVERS.postgres.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.href,
    drop: async () => {
      try {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}
