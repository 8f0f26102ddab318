import { type CollectionSchema, ConstraintViolation, StoreUnavailable } from '@resourcery/core/store';
import { translateError } from '@resourcery/sql';
import { describe, expect, it } from 'vitest';

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
