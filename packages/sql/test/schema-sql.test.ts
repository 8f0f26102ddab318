import type { CollectionSchema } from '@resourcery/core/store';
import { createTableSql, schemaSql } from '@resourcery/sql';
import { describe, expect, it } from 'vitest';

const schema: CollectionSchema = {
  name: 'books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 765 },
    { name: 'summary', type: 'string', nullable: true, maxLength: 766 },
    { name: 'year', type: 'integer', nullable: true },
    { name: 'price', type: 'number', nullable: false },
    { name: 'available', type: 'boolean', nullable: true },
  ],
  indexed: ['name', 'summary', 'year', 'id'],
};

describe('createTableSql', () => {
  it('SQLite: AUTOINCREMENT ids, typed columns, an index (field, id) per indexed field', () => {
    const [table, ...indexes] = createTableSql(schema, 'sqlite');
    expect(table).toContain('"id" INTEGER PRIMARY KEY AUTOINCREMENT');
    expect(table).toContain('"name" TEXT NOT NULL');
    expect(table).toContain('"price" REAL NOT NULL');
    expect(table).toContain('"available" INTEGER CHECK ("available" IN (0, 1))');
    expect(indexes).toEqual([
      'CREATE INDEX IF NOT EXISTS "books_name_idx" ON "books" ("name", "id")',
      'CREATE INDEX IF NOT EXISTS "books_summary_idx" ON "books" ("summary", "id")',
      'CREATE INDEX IF NOT EXISTS "books_year_idx" ON "books" ("year", "id")',
    ]);
  });

  it('PostgreSQL: identity ids, COLLATE "C", nullable keys indexed NULLS FIRST', () => {
    const [table, ...indexes] = createTableSql(schema, 'postgres');
    expect(table).toContain('"id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY');
    expect(table).toContain('"name" VARCHAR(765) COLLATE "C" NOT NULL');
    expect(table).toContain('"year" BIGINT,');
    expect(table).toContain('"price" DOUBLE PRECISION NOT NULL');
    expect(indexes[2]).toBe('CREATE INDEX IF NOT EXISTS "books_year_idx" ON "books" ("year" NULLS FIRST, "id")');
  });

  it('MySQL and MariaDB: no-pad binary collations, whole keys up to 765 characters, prefixes beyond', () => {
    const [mysql] = createTableSql(schema, 'mysql');
    expect(mysql).toContain('`id` BIGINT NOT NULL AUTO_INCREMENT');
    expect(mysql).toContain('`name` VARCHAR(765) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin NOT NULL');
    expect(mysql).toContain('`summary` MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin');
    expect(mysql).toContain('KEY `books_name_idx` (`name`, `id`)');
    expect(mysql).toContain('KEY `books_summary_idx` (`summary`(255), `id`)');
    expect(mysql).toMatch(/\) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin$/);
    const [mariadb] = createTableSql(schema, 'mariadb');
    expect(mariadb).toContain('COLLATE utf8mb4_nopad_bin');
    expect(mariadb).not.toContain('0900');
  });

  it('quotes identifiers, applies the table prefix and keeps index names within 63 characters', () => {
    const odd: CollectionSchema = {
      name: 'we"ird`table',
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'a_very_long_attribute_name_that_goes_on_and_on_and_on', type: 'string', nullable: false },
      ],
      indexed: ['a_very_long_attribute_name_that_goes_on_and_on_and_on'],
    };
    const [table, index] = createTableSql(odd, 'postgres', { tablePrefix: 'app_' });
    expect(table).toContain('CREATE TABLE IF NOT EXISTS "app_we""ird`table"');
    const name = /INDEX IF NOT EXISTS "([^"]+)"/.exec(index ?? '')?.[1] ?? '';
    expect(name.length).toBeLessThanOrEqual(63);
    expect(createTableSql(odd, 'mysql')[0]).toContain('`we"ird``table`');
  });

  it('schemaSql joins the statements of several collections into one script', () => {
    const script = schemaSql([schema, { ...schema, name: 'authors' }], 'sqlite');
    expect(script.match(/CREATE TABLE/g)).toHaveLength(2);
    expect(script.trimEnd().endsWith(';')).toBe(true);
  });
});
