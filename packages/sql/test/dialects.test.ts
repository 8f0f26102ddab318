import { type CollectionSchema, ConstraintViolation, StoreUnavailable } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { Kysely, MysqlDialect, type MysqlPool, PostgresDialect, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, detectDialect, dialectNamed } from '../src/dialects/index.js';
import { translateDriverError } from '../src/store/translate-error.js';

const schema: CollectionSchema = {
  name: 'books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false },
  ],
  indexed: [],
};

describe('the dialect objects', () => {
  it('are found by name, and an unknown name is refused', async () => {
    for (const name of ['sqlite', 'postgres', 'mysql', 'mariadb'] as const) expect(dialectNamed(name).name).toBe(name);
    expect(DIALECTS.map((dialect) => dialect.name)).toEqual(['sqlite', 'postgres', 'mysql', 'mariadb']);
    expect(() => dialectNamed('oracle' as never)).toThrow(TypeError);
    const db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    expect(() => sqlStore(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect "oracle"/);
    await db.destroy();
  });

  it('tell the dialect of a Kysely instance by its adapter, without connecting', () => {
    const never = () => Promise.reject(new Error('not connected'));
    const pg = new Kysely({ dialect: new PostgresDialect({ pool: never as never }) });
    const mysql = new Kysely({ dialect: new MysqlDialect({ pool: never as () => Promise<MysqlPool> }) });
    expect(detectDialect(pg)?.name).toBe('postgres');
    expect(detectDialect(mysql)?.name).toBe('mysql'); // MariaDB is told apart by `init`
  });

  it('each read their own driver errors; socket failures are unavailable in every dialect', () => {
    const duplicate = Object.assign(new Error('dup'), { code: '23505', detail: 'Key (name)=(Dune) already exists.' });
    expect(translateDriverError(duplicate, schema, [dialectNamed('postgres')])).toBeInstanceOf(ConstraintViolation);
    expect(translateDriverError(duplicate, schema, [dialectNamed('sqlite')])).toBe(duplicate);
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    for (const dialect of DIALECTS) {
      expect(translateDriverError(refused, schema, [dialect])).toBeInstanceOf(StoreUnavailable);
    }
  });
});
