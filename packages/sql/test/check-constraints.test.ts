import type { CollectionSchema } from '@resourcery/core/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checksDrift, tableChecks } from '../src/ddl/check-constraints.js';
import { mysql } from '../src/dialects/mysql.js';
import { postgres } from '../src/dialects/postgres.js';
import { sqlite } from '../src/dialects/sqlite.js';

// The drift check reads back CHECKs as each catalog writes them, including MySQL 8's (no server
// of it in the test databases): charset introducers, backslash escapes, PostgreSQL's ANY (ARRAY).

const schema = (values: readonly string[], sizes: readonly number[] = [1, 3]): CollectionSchema => ({
  name: 'tickets',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'status', type: 'string', nullable: false, values },
    { name: 'size', type: 'integer', nullable: true, values: sizes },
  ],
  indexed: [],
});
const STATUSES = ['open', 'done'];
const sizeCheck = { name: 'tickets_size_check', clause: '`size` in (1,3)' };

describe('checksDrift', () => {
  it('reads MySQL 8 clauses (charset introducers, backslash escapes) and finds a CHECK of any name', () => {
    const clause = "(`status` in (_utf8mb4'done',_utf8mb4'open'))";
    expect(checksDrift(schema(STATUSES), [{ name: 'mine', clause }, sizeCheck], mysql, '')).toEqual([]);
    const quoted = "(`status` in (_utf8mb4'it\\'s',_utf8mb4'a\\\\b'))";
    expect(checksDrift(schema(["it's", 'a\\b']), [{ name: 'x', clause: quoted }, sizeCheck], mysql, '')).toEqual([]);
  });

  it('reads PostgreSQL clauses, negative numbers included', () => {
    const checks = [
      { name: 'tickets_status_check', clause: "CHECK ((status = ANY (ARRAY['open'::text, 'done'::text])))" },
      { name: 'tickets_size_check', clause: "CHECK ((size = ANY (ARRAY[('-1'::integer)::bigint, (3)::bigint])))" },
    ];
    expect(checksDrift(schema(STATUSES, [-1, 3]), checks, postgres, '')).toEqual([]);
    expect(checksDrift(schema(STATUSES, [1, 3]), checks, postgres, '')).toEqual([
      'the CHECK "tickets_size_check" on "size" allows (-1, 3) where (1, 3) are declared',
    ]);
  });

  it('names a missing CHECK, and a stricter one of your own beside the store’s', () => {
    const own = tableChecks(schema(STATUSES), sqlite, '').map(({ name, definition }) => ({
      name,
      clause: definition.slice(definition.indexOf('CHECK (') + 7, -1),
    }));
    expect(checksDrift(schema(STATUSES), own, sqlite, '')).toEqual([]);
    expect(checksDrift(schema(STATUSES), own.slice(1), sqlite, '')).toEqual([
      `no CHECK ("status" IN ('open', 'done')) (the store names it "tickets_status_check")`,
    ]);
    const stricter = [...own, { name: '', clause: `"status" IN ('open')` }];
    expect(checksDrift(schema(STATUSES), stricter, sqlite, '')).toEqual([
      'the CHECK "" on "status" allows (open) where (done, open) are declared',
    ]);
    // A CHECK on another column, or listing no value, is not looked at.
    const other = [...own, { name: 'len', clause: 'length("status") > 0' }, { name: 'n', clause: `"title" IN ('x')` }];
    expect(checksDrift(schema(STATUSES), other, sqlite, '')).toEqual([]);
  });

  it('finds the CHECK it writes, whatever the listed strings hold, on every dialect', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }),
        (values) => {
          for (const dialect of [sqlite, postgres, mysql]) {
            const written = tableChecks(schema(values), dialect, '').map(({ name, definition }) => ({
              name,
              clause: definition.slice(definition.indexOf('CHECK (') + 7, -1),
            }));
            expect(checksDrift(schema(values), written, dialect, '')).toEqual([]);
          }
        },
      ),
    );
  });
});
