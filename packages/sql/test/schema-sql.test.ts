import type { CollectionSchema } from '@resourcery/core/store';
import { createTableSql, schemaSql } from '@resourcery/sql';
import { librarySchemas } from '@resourcery/testing/suites';
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

  it('declared composite indexes, in order and direction; an index that begins another is left out', () => {
    const declared: CollectionSchema = {
      ...schema,
      indexes: [
        [
          { field: 'year', direction: 'desc' },
          { field: 'name', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        [{ field: 'name', direction: 'asc' }], // begins (name, id): left out
      ],
    };
    expect(createTableSql(declared, 'postgres').slice(1)).toEqual([
      'CREATE INDEX IF NOT EXISTS "books_year_desc_name_id_idx" ON "books" ("year" DESC NULLS LAST, "name", "id")',
      'CREATE INDEX IF NOT EXISTS "books_name_idx" ON "books" ("name", "id")',
      'CREATE INDEX IF NOT EXISTS "books_summary_idx" ON "books" ("summary" NULLS FIRST, "id")',
      'CREATE INDEX IF NOT EXISTS "books_year_idx" ON "books" ("year" NULLS FIRST, "id")',
    ]);
    expect(createTableSql(declared, 'sqlite')[1]).toBe(
      'CREATE INDEX IF NOT EXISTS "books_year_desc_name_id_idx" ON "books" ("year" DESC, "name", "id")',
    );
    expect(createTableSql(declared, 'mariadb')[0]).toContain(
      'KEY `books_year_desc_name_id_idx` (`year` DESC, `name`, `id`)',
    );
    const same = {
      ...schema,
      indexes: [
        [
          { field: 'year', direction: 'asc' as const },
          { field: 'id', direction: 'asc' as const },
        ],
      ],
    };
    expect(createTableSql(same, 'sqlite').filter((statement) => statement.includes('("year"'))).toEqual([
      'CREATE INDEX IF NOT EXISTS "books_year_id_idx" ON "books" ("year", "id")',
    ]);
  });

  it('refuses a unique set or an index naming no attribute; leaves JSON and unknown fields out of (field, id)', () => {
    expect(() => createTableSql({ ...schema, unique: [['nope']] }, 'postgres')).toThrow(
      'An index of books names "nope", which is not an attribute',
    );
    const loose = {
      ...schema,
      attributes: [...schema.attributes, { name: 'meta', type: 'json' as const, nullable: true }],
    };
    const statements = createTableSql({ ...loose, indexed: ['meta', 'gone', 'year'] }, 'sqlite');
    expect(statements.slice(1)).toEqual(['CREATE INDEX IF NOT EXISTS "books_year_idx" ON "books" ("year", "id")']);
  });

  it('schemaSql joins the statements of several collections into one script', () => {
    const script = schemaSql([schema, { ...schema, name: 'authors' }], 'sqlite');
    expect(script.match(/CREATE TABLE/g)).toHaveLength(2);
    expect(script.trimEnd().endsWith(';')).toBe(true);
  });
});

describe('the data model in DDL', () => {
  // Given children first: referenced tables are created first all the same.
  const library = librarySchemas('lib');
  const schemas = [library.awards, library.votes, library.reviews, library.books, library.authors];

  it.each(['sqlite', 'postgres', 'mysql', 'mariadb'] as const)('%s', async (dialect) => {
    await expect(schemaSql(schemas, dialect)).toMatchFileSnapshot(`__snapshots__/library.${dialect}.sql`);
  });

  it('names unique sets and foreign keys <table>_<fields>_key and <table>_<field>_fkey, within 63 bytes', () => {
    const [table, ...indexes] = createTableSql(library.books, 'postgres', { tablePrefix: 'api_' });
    expect(table).toContain(
      'CONSTRAINT "api_lib_books_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "api_lib_authors" ("id") ON DELETE RESTRICT',
    );
    expect(indexes).toContain(
      'CREATE UNIQUE INDEX IF NOT EXISTS "api_lib_books_authorId_title_key" ON "api_lib_books" ("authorId", "title")',
    );
    const long = { ...library.books, name: 'ł'.repeat(40) };
    for (const statement of createTableSql(long, 'postgres')) {
      for (const [, name] of statement.matchAll(/(?:INDEX IF NOT EXISTS|CONSTRAINT) "([^"]+)"/g)) {
        expect(Buffer.byteLength(name as string)).toBeLessThanOrEqual(63);
        expect(name).toMatch(/_[0-9a-f]{8}_(key|idx|fkey)$/);
      }
    }
  });

  it('writes defaults as literals of the column type, quoted for each database', () => {
    const odd: CollectionSchema = {
      name: 't',
      attributes: [
        { name: 'id', type: 'uuid', nullable: false },
        { name: 'label', type: 'string', nullable: false, default: "it's a \\ back'slash" },
        { name: 'flag', type: 'boolean', nullable: false, default: true },
        { name: 'price', type: 'decimal', nullable: false, scale: 2, precision: 10, default: '-1.50' },
        { name: 'at', type: 'date-time', nullable: true, default: '2024-05-01T14:00:00+02:00' },
        { name: 'day', type: 'date', nullable: true, default: '2024-05-01' },
      ],
      indexed: [],
    };
    const [sqlite] = createTableSql(odd, 'sqlite');
    expect(sqlite).toContain(`"label" TEXT NOT NULL DEFAULT 'it''s a \\ back''slash'`);
    expect(sqlite).toContain('"flag" INTEGER NOT NULL DEFAULT 1 CHECK ("flag" IN (0, 1))');
    expect(sqlite).toContain('"price" INTEGER NOT NULL DEFAULT -150');
    expect(sqlite).toContain(`"at" TEXT DEFAULT '2024-05-01T12:00:00.000Z'`);
    const [postgres] = createTableSql(odd, 'postgres');
    expect(postgres).toContain('"id" UUID PRIMARY KEY');
    expect(postgres).toContain('"flag" BOOLEAN NOT NULL DEFAULT TRUE');
    expect(postgres).toContain('"price" NUMERIC(10, 2) NOT NULL DEFAULT -1.50');
    expect(postgres).toContain(`"day" DATE DEFAULT '2024-05-01'`);
    const [mariadb] = createTableSql(odd, 'mariadb');
    expect(mariadb).toContain('`id` CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL');
    // MySQL reads a backslash in a string as an escape; a TEXT default is an expression.
    expect(mariadb).toContain(
      `\`label\` MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL DEFAULT ('it''s a \\\\ back''slash')`,
    );
    expect(mariadb).toContain(`\`at\` DATETIME(3) DEFAULT '2024-05-01 12:00:00.000'`);
    expect(() =>
      createTableSql({ ...odd, attributes: [{ name: 'n', type: 'integer', nullable: true, default: 'x' }] }, 'sqlite'),
    ).toThrow('The default of n is not a integer');
  });

  it('refuses collections that refer to each other in a cycle; one may refer to itself', () => {
    const node = (name: string, other: string): CollectionSchema => ({
      name,
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'otherId', type: 'integer', nullable: true },
      ],
      indexed: [],
      references: [{ field: 'otherId', collection: other, onDelete: 'nullify' }],
    });
    expect(() => schemaSql([node('a', 'b'), node('b', 'a')], 'postgres')).toThrow(
      'Collections refer to each other in a cycle (a → b → a)',
    );
    expect(schemaSql([node('a', 'a')], 'postgres')).toContain('REFERENCES "a" ("id") ON DELETE SET NULL');
  });
});
