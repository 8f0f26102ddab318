import { type CollectionSchema, ConstraintViolation, StoreUnavailable } from '@resourcery/core/store';
import { translateError } from '@resourcery/sql';
import { describe, expect, it } from 'vitest';
import { StoreCatalog } from '../src/ddl/catalog.js';
import { DIALECTS } from '../src/dialects/index.js';
import { translateDriverError } from '../src/store/translate-error.js';

const schema: CollectionSchema = {
  name: 'books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false },
    { name: 'author', type: 'string', nullable: false },
  ],
  indexed: [],
};

const error = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'driver')), fields);

describe('translateError', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a refused connection to every address', { errors: [{ code: 'ECONNREFUSED' }] }],
    ['PostgreSQL shutting down', { code: '57P01' }],
    ['PostgreSQL starting up', { code: '57P03' }],
    ['a PostgreSQL connection failure', { code: '08006' }],
    ['a dropped PostgreSQL connection', { message: 'Connection terminated unexpectedly' }],
    ['a pg pool timeout', { message: 'timeout exceeded when trying to connect' }],
    ['a lost MySQL connection', { code: 'PROTOCOL_CONNECTION_LOST' }],
    ['any fatal mysql2 error', { code: 'ER_SOMETHING', fatal: true }],
    ['a MySQL deadlock', { code: 'ER_LOCK_DEADLOCK' }],
    ['a busy SQLite file', { code: 'SQLITE_BUSY' }],
    ['an unopenable SQLite file', { code: 'SQLITE_CANTOPEN' }],
    ['a cause deeper down', { cause: { code: 'ETIMEDOUT' } }],
  ])('%s is StoreUnavailable (503), keeping the driver error as its cause', (_, fields) => {
    const original = error(fields);
    const translated = translateError(original, schema);
    expect(translated).toBeInstanceOf(StoreUnavailable);
    expect((translated as StoreUnavailable).cause).toBe(original);
  });

  it.each([
    ['PostgreSQL unique', { code: '23505', detail: 'Key (name)=(Dune) already exists.' }, 422, 'name'],
    ['PostgreSQL not null', { code: '23502', column: 'author' }, 422, 'author'],
    ['PostgreSQL unique on two columns', { code: '23505', detail: 'Key (name, author)=(a, b) already exists.' }, 409],
    ['PostgreSQL value too long', { code: '22001' }, 409],
    [
      'MySQL duplicate',
      { code: 'ER_DUP_ENTRY', message: "Duplicate entry 'Dune' for key 'books_name_unique'" },
      422,
      'name',
    ],
    ['MySQL null', { code: 'ER_BAD_NULL_ERROR', message: "Column 'author' cannot be null" }, 422, 'author'],
    [
      'SQLite unique',
      { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: books.name' },
      422,
      'name',
    ],
    ['SQLite check', { code: 'SQLITE_CONSTRAINT_CHECK', message: 'CHECK constraint failed: positive' }, 409],
  ])('%s is a ConstraintViolation (%i)', (_, fields, status, field?: string) => {
    const translated = translateError(error(fields), schema) as ConstraintViolation;
    expect(translated).toBeInstanceOf(ConstraintViolation);
    // The API answers 422 naming the field when the store found it, else 409.
    expect(translated.field).toBe(status === 422 ? field : undefined);
    expect(translated.message).not.toMatch(/Dune|books|Key|constraint failed/);
  });

  it('leaves other errors alone (they become a 500 whose details only the log sees)', () => {
    const syntax = error({ code: '42601', message: 'syntax error at or near "selec"' });
    expect(translateError(syntax, schema)).toBe(syntax);
    const plain = new TypeError('bug');
    expect(translateError(plain)).toBe(plain);
  });
});

describe('unique sets and foreign keys of the declarations', () => {
  const authors: CollectionSchema = {
    name: 'authors',
    attributes: [{ name: 'id', type: 'integer', nullable: false }],
    indexed: [],
  };
  const books: CollectionSchema = {
    name: 'books',
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false },
      { name: 'authorId', type: 'integer', nullable: false },
    ],
    indexed: [],
    unique: [['authorId', 'title']],
    references: [{ field: 'authorId', collection: 'authors', onDelete: 'restrict' }],
  };
  const catalog = new StoreCatalog('app_').add(authors).add(books);
  const translate = (fields: Record<string, unknown>, schema: CollectionSchema, destroying = false) =>
    translateDriverError(error(fields), schema, DIALECTS, { catalog, destroying }) as ConstraintViolation;

  it.each([
    [
      'PostgreSQL unique set (by constraint name)',
      {
        code: '23505',
        constraint: 'app_books_authorId_title_key',
        detail: 'Key ("authorId", title)=(1, Dune) already exists.',
      },
    ],
    [
      'MySQL duplicate of a set',
      { code: 'ER_DUP_ENTRY', message: "Duplicate entry '1-Dune' for key 'app_books.app_books_authorId_title_key'" },
    ],
    [
      'SQLite unique set (by its columns)',
      { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: app_books.authorId, app_books.title' },
    ],
  ])('%s names the last field of the set', (_, fields) => {
    expect(translate(fields, books)).toMatchObject({ kind: 'unique', field: 'title' });
  });

  it.each([
    [
      'PostgreSQL 23503 on insert',
      {
        code: '23503',
        constraint: 'app_books_authorId_fkey',
        message: 'insert or update on table "app_books" violates foreign key constraint "app_books_authorId_fkey"',
      },
    ],
    [
      'MySQL 1452',
      {
        code: 'ER_NO_REFERENCED_ROW_2',
        message:
          'Cannot add or update a child row: a foreign key constraint fails (`test`.`app_books`, CONSTRAINT `app_books_authorId_fkey` FOREIGN KEY (`authorId`) REFERENCES `app_authors` (`id`) ON DELETE RESTRICT)',
      },
    ],
  ])('%s is a foreign_key violation naming the field', (_, fields) => {
    expect(translate(fields, books)).toMatchObject({ kind: 'foreign_key', field: 'authorId' });
  });

  it('SQLite does not say which key: the store looks it up (see the store suite)', () => {
    const failure = translate(
      { code: 'SQLITE_CONSTRAINT_FOREIGNKEY', message: 'FOREIGN KEY constraint failed' },
      books,
    );
    expect(failure).toMatchObject({ kind: 'foreign_key', field: undefined });
  });

  it.each([
    [
      'PostgreSQL 23503 on delete',
      {
        code: '23503',
        constraint: 'app_books_authorId_fkey',
        message:
          'update or delete on table "app_authors" violates foreign key constraint "app_books_authorId_fkey" on table "app_books"',
      },
      { collection: 'books', field: 'authorId' },
    ],
    [
      'MySQL 1451',
      {
        code: 'ER_ROW_IS_REFERENCED_2',
        message:
          'Cannot delete or update a parent row: a foreign key constraint fails (`test`.`app_books`, CONSTRAINT `app_books_authorId_fkey` FOREIGN KEY (`authorId`) REFERENCES `app_authors` (`id`))',
      },
      { collection: 'books', field: 'authorId' },
    ],
    [
      'SQLite, while destroying',
      { code: 'SQLITE_CONSTRAINT_TRIGGER', message: 'FOREIGN KEY constraint failed' },
      undefined,
    ],
  ])('%s is a referenced violation naming the relation when the driver names the key', (_, fields, by) => {
    const failure = translate(fields, authors, true);
    expect(failure).toMatchObject({ kind: 'referenced', field: undefined, referencedBy: by });
    expect(failure.message).not.toMatch(/app_|constraint fails|violates/);
  });

  it('translateError knows the names schemaSql gives, with the table prefix', () => {
    const duplicate = error({ code: '23505', constraint: 'app_books_authorId_title_key' });
    expect(translateError(duplicate, books, { tablePrefix: 'app_' })).toMatchObject({ field: 'title' });
    expect(translateError(duplicate, books)).toMatchObject({ field: undefined });
  });
});
