import type { CollectionSchema, Condition, Id, Order, Scalar } from '@resourcery/core/store';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import type { RowCodec } from './row-mapping.js';
import { searchMatches } from './search-sql.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time, from the declaration
type Eb = ExpressionBuilder<any, any>;
type Bool = Expression<SqlBool>;
type Operator = NonNullable<Condition['op']>;

const NOTHING = sql<SqlBool>`1 = 0`;
const EVERYTHING = sql<SqlBool>`1 = 1`;
const COMPARISONS = { ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const MAX_CODE_POINT = 0x10ffff;

/**
 * The smallest string that comes after every string starting with `prefix`, in code point
 * order: the prefix with its last code point incremented (a last U+10FFFF is dropped and the
 * one before it incremented; the surrogates, which no stored string holds, are skipped).
 * `undefined` when no string is past them all (an empty prefix, or only U+10FFFF).
 *
 * @example
 * ```ts
 * prefixEnd('ab'); // 'ac': `col >= 'ab' AND col < 'ac'` is `col` starting with 'ab'
 * ```
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix, (character) => character.codePointAt(0) as number);
  while (points.length > 0) {
    const last = points.pop() as number;
    if (last < MAX_CODE_POINT) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}

/**
 * The SQL of one collection's conditions: `IN` lists, the operators of CONTRACT part 3,
 * relation filters as semi-joins on the related collection's own table and columns, and the
 * keyset position of `after`. Every value is sent as a parameter in its column's form (scaled
 * decimals and 0/1 booleans on SQLite, UTC wall times on MySQL...), and every column name is
 * checked against the schema.
 *
 * @example
 * ```ts
 * const filters = new FilterSql(schema, 'books', codec, postgres, () => undefined);
 * db.selectFrom('books').selectAll().where((eb) => filters.matches(eb, [{ field: 'year', op: 'gte', values: [1950] }]));
 * ```
 */
export class FilterSql {
  readonly #fields: ReadonlySet<string>;
  readonly #nullable: ReadonlySet<string>;

  constructor(
    readonly schema: CollectionSchema,
    readonly table: string,
    readonly codec: RowCodec,
    readonly dialect: SqlDialectSpec,
    /** The filters of another collection of the store, by its name, in the schema the store keeps (relation filters). */
    readonly collection: (name: string) => FilterSql | undefined,
  ) {
    this.#fields = new Set(codec.columns);
    this.#nullable = new Set(schema.attributes.filter((a) => a.nullable).map((a) => a.name));
  }

  /** A column name checked against the schema, so that nothing else ever reaches the SQL. */
  column(field: string): string {
    if (!this.#fields.has(field)) throw new TypeError(`${this.schema.name} has no attribute "${field}"`);
    return field;
  }

  /** Whether the attribute may hold `null`. */
  nullable(field: string): boolean {
    return this.#nullable.has(field);
  }

  /** The conditions ANDed, and `id = ?` first when an id is given. */
  matches(eb: Eb, where: readonly Condition[], id?: Id): Bool {
    const parts = where.map((condition) => this.#condition(eb, condition, where));
    if (id !== undefined) parts.unshift(eb('id', '=', id));
    if (parts.length === 0) return EVERYTHING;
    return parts.length === 1 ? (parts[0] as Bool) : eb.and(parts);
  }

  /** One condition; `where`, all of them: a search reads the one tenant they keep (search-tenant-words.ts). */
  #condition(eb: Eb, condition: Condition, where: readonly Condition[]): Bool {
    const { search } = condition;
    if (search) return searchMatches(eb, this.schema, this.table, search, this.dialect, this.#oneTenant(where));
    const column = this.column(condition.field);
    const { related, op, values } = condition;
    if (related) {
      // A semi-join: never duplicates a row, and counts and keyset pages stay plain.
      const ids = this.relatedSelect(eb, related);
      return ids ? eb(column, 'in', ids) : NOTHING; // a collection the store never saw has no records
    }
    return op === undefined ? this.#in(eb, column, values) : this.#operator(eb, column, op, values[0] ?? null);
  }

  /**
   * The values a relation filter's `field` must hold: `SELECT <key> FROM <the related table> WHERE
   * …`; `undefined` for a collection the store never saw.
   */
  relatedSelect(eb: Eb, related: NonNullable<Condition['related']>) {
    const target = this.collection(related.collection);
    if (!target) return undefined;
    return eb
      .selectFrom(target.table)
      .select(target.column(related.key ?? 'id'))
      .where((inner) => target.matches(inner, related.where));
  }

  /** The one tenant `where` keeps (`tenant = v`), if any. */
  #oneTenant(where: readonly Condition[]): Scalar | undefined {
    const tenant = where.find((c) => c.field === this.schema.tenant && !c.op && !c.related)?.values;
    return tenant?.length === 1 && tenant[0] !== null ? tenant[0] : undefined;
  }

  /** `column IN (values)`, with `null` among the values meaning `column IS NULL`. */
  #in(eb: Eb, column: string, values: readonly Scalar[]): Bool {
    const present: unknown[] = [];
    for (const value of values) if (value !== null) present.push(this.codec.toParameter(column, value));
    const parts: Bool[] = [];
    if (present.length === 1) parts.push(eb(column, '=', present[0]));
    else if (present.length > 1) parts.push(eb(column, 'in', present));
    if (present.length < values.length) parts.push(eb(column, 'is', null));
    if (parts.length === 0) return NOTHING;
    return parts.length === 1 ? (parts[0] as Bool) : eb.or(parts);
  }

  #operator(eb: Eb, column: string, op: Operator, operand: Scalar): Bool {
    switch (op) {
      case 'null':
        return eb(column, operand ? 'is' : 'is not', null);
      case 'contains':
        return this.dialect.contains(column, String(operand));
      case 'prefix': {
        // A range rather than LIKE: literal, case-sensitive, and answered from the (column, id) index.
        const text = String(operand);
        const end = prefixEnd(text);
        const from = eb(column, '>=', text);
        return end === undefined ? from : eb.and([from, eb(column, '<', end)]);
      }
      default:
        if (operand === null) return op === 'ne' ? eb(column, 'is not', null) : NOTHING;
        // A comparison with NULL is unknown, never true: `ne` leaves out the records without a
        // value, as every comparison does (CONTRACT part 3).
        return eb(column, COMPARISONS[op], this.codec.toParameter(column, operand));
    }
  }

  /**
   * The records strictly after `position` (one value per key of `order`) in that order, nulls
   * first ascending and last descending: the expanded keyset predicate `k1 > v1 OR (k1 = v1 AND
   * (k2 > v2 OR …))`, built from the last key, with each key's direction and nulls. A
   * redundant bound on the first key (`k1 >= v1`) lets the database start an index range there.
   */
  after(eb: Eb, order: readonly Order[], position: readonly Scalar[]): Bool {
    let rest: Bool | undefined; // undefined: no record
    for (let index = order.length - 1; index >= 0; index--) {
      const { field, direction } = order[index] as Order;
      const column = this.column(field);
      const value = position[index] ?? null;
      const beyond = this.#beyond(eb, column, direction, value);
      if (rest === undefined) {
        rest = beyond;
        continue;
      }
      const same = value === null ? eb(column, 'is', null) : eb(column, '=', this.codec.toParameter(column, value));
      const tie = eb.and([same, rest]);
      rest = beyond ? eb.or([beyond, tie]) : tie;
    }
    if (!rest) return NOTHING;
    const first = order[0] as Order;
    const value = position[0] ?? null;
    if (value === null || order.length === 1) return rest;
    const column = this.column(first.field);
    if (first.direction === 'asc') return eb.and([eb(column, '>=', this.codec.toParameter(column, value)), rest]);
    if (this.nullable(first.field)) return rest;
    return eb.and([eb(column, '<=', this.codec.toParameter(column, value)), rest]);
  }

  /** The values of one key strictly after `value` in its direction (`null` smallest), or `undefined` for none. */
  #beyond(eb: Eb, column: string, direction: Order['direction'], value: Scalar): Bool | undefined {
    if (direction === 'asc') {
      return value === null ? eb(column, 'is not', null) : eb(column, '>', this.codec.toParameter(column, value));
    }
    if (value === null) return undefined; // nothing comes after null descending
    const below = eb(column, '<', this.codec.toParameter(column, value));
    return this.nullable(column) ? eb.or([below, eb(column, 'is', null)]) : below;
  }
}
