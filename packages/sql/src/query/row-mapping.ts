import {
  type AttributeSchema,
  type CollectionSchema,
  canonicalDateTime,
  canonicalDecimal,
  MAX_PRECISION,
  type Scalar,
  type StoredRecord,
  type StoredValue,
} from '@resourcery/core/store';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { Slot } from '../execute/shapes.js';
import { wordsColumns } from './search-sql.js';

/** Turns a column's (non-null) value as the driver answers it into the record's canonical form. */
type Reader = (value: unknown) => StoredValue;
/** Turns a record's (non-null) value into the parameter the driver sends. */
type Writer = (value: StoredValue) => unknown;

const same = (value: unknown) => value as StoredValue;
// pg answers BIGINT as text, SQLite and mysql2 as numbers.
const readNumber: Reader = (value) => (typeof value === 'number' ? value : Number(value));
const readBoolean: Reader = (value) => value === true || value === 1 || value === '1' || value === 1n;
const readString: Reader = (value) => (typeof value === 'string' ? value : String(value));
// pg parses `json` itself; mysql2 may parse MariaDB's (3.23+) unless told not to.
const readJson: Reader = (value) => (typeof value === 'string' ? JSON.parse(value) : (value as StoredValue));
const writeJson: Writer = (value) => JSON.stringify(value);
const writeBooleanAsInteger: Writer = (value) => (value ? 1 : 0);

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * A date-time as the canonical `YYYY-MM-DDTHH:MM:SS.sssZ`: SQLite's text already is; mysql2
 * answers `DATETIME(3)` as the UTC wall time `2024-05-01 12:00:00.000`; pg a Date.
 */
const readDateTime: Reader = (value) => {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  if (text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && text.charCodeAt(10) === 84 /* T */) return text;
  if (text.length === 23) return `${text.slice(0, 10)}T${text.slice(11)}Z`;
  // Another precision, or an offset (`+00`): read it whole.
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return canonicalDateTime(/([zZ]|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`) ?? text;
};

/** A `DATE` that a driver answered as a Date at local midnight (pg's default parser). */
const readLocalDate: Reader = (value) =>
  value instanceof Date
    ? `${pad(value.getFullYear(), 4)}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`
    : String(value).slice(0, 10);
/** A `DATE` that a driver answered as a Date at UTC midnight (mysql2 with `timezone: 'Z'`). */
const readUtcDate: Reader = (value) =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** A canonical decimal with exactly `scale` places, whatever form it came in. */
function exactDecimal(value: StoredValue, scale: number, precision: number): string {
  const text = typeof value === 'string' ? value : String(value);
  const dot = text.indexOf('.');
  if ((dot < 0 ? 0 : text.length - dot - 1) === scale && scale > 0 === dot >= 0) return text;
  return canonicalDecimal(text, scale, precision).value ?? text;
}

function decimalCodec(attribute: AttributeSchema, dialect: SqlDialectSpec): [Reader, Writer] {
  const scale = attribute.scale ?? 0;
  const precision = attribute.precision ?? MAX_PRECISION;
  if (!dialect.scaledDecimals) {
    // NUMERIC / DECIMAL answered as text with the column's places (a number if the pool says so).
    const read: Reader = (value) => (typeof value === 'number' ? value.toFixed(scale) : String(value));
    return [read, (value) => exactDecimal(value, scale, precision)];
  }
  // An integer scaled by 10^scale: at most 15 digits, so a safe integer, never a float on the way.
  const read: Reader = (value) => {
    const scaled = typeof value === 'number' ? value : Number(value);
    const digits = String(Math.abs(scaled)).padStart(scale + 1, '0');
    const sign = scaled < 0 ? '-' : '';
    return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  };
  return [read, (value) => Number(exactDecimal(value, scale, precision).replace('.', ''))];
}

/** The reader and writer of one attribute in one dialect. */
function attributeCodec(attribute: AttributeSchema, dialect: SqlDialectSpec): [Reader, Writer] {
  switch (attribute.type) {
    case 'integer':
    case 'number':
      return [readNumber, same];
    case 'boolean':
      return [readBoolean, dialect.nativeBooleans ? same : writeBooleanAsInteger];
    case 'string':
    case 'uuid':
      return [readString, same];
    case 'date-time':
      return [readDateTime, (value) => dialect.dateTimeParameter(String(value))];
    case 'date':
      return [dialect.localDriverDates ? readLocalDate : readUtcDate, same];
    case 'decimal':
      return decimalCodec(attribute, dialect);
    case 'json':
      return [readJson, writeJson];
  }
}

/**
 * How one collection's records and rows convert, chosen once per attribute when the collection
 * is made: a row becomes a record in one loop over precomputed readers, and values become
 * parameters through precomputed writers (a `DATE` stays text, a decimal never goes through a
 * float, `json` is written with `JSON.stringify` and parsed when read).
 *
 * @example
 * ```ts
 * const codec = new RowCodec(schema, sqlite);
 * codec.toRecord({ id: 1, price: 1250, available: 1 }); // { id: 1, price: '12.50', available: true }
 * ```
 */
export class RowCodec {
  /** Every column, `id` first: the select list. */
  readonly columns: readonly string[];
  readonly #readers: readonly Reader[];
  readonly #writers: ReadonlyMap<string, Writer>;
  readonly #writable: readonly AttributeSchema[];
  readonly #schema: CollectionSchema;
  readonly #dialect: SqlDialectSpec;

  constructor(schema: CollectionSchema, dialect: SqlDialectSpec) {
    this.#schema = schema;
    this.#dialect = dialect;
    const codecs = schema.attributes.map((attribute) => attributeCodec(attribute, dialect));
    this.columns = schema.attributes.map((attribute) => attribute.name);
    this.#readers = codecs.map(([read]) => read);
    this.#writers = new Map(
      schema.attributes.map((attribute, i) => [attribute.name, (codecs[i] as [Reader, Writer])[1]]),
    );
    this.#writable = schema.attributes;
  }

  /** A row as the record, every attribute present (`null` for no value). */
  toRecord(row: Record<string, unknown>): StoredRecord {
    const record: Record<string, StoredValue> = {};
    const { columns } = this;
    const readers = this.#readers;
    for (let i = 0; i < columns.length; i++) {
      const name = columns[i] as string;
      const value = row[name];
      record[name] = value === null || value === undefined ? null : (readers[i] as Reader)(value);
    }
    return record as StoredRecord;
  }

  /**
   * The columns of a sparse list (`id`, then the `select`ed attributes once each) and the
   * reader of its rows, which answers records with exactly those attributes.
   */
  selected(select: readonly string[]): { columns: string[]; toRecord: (row: Record<string, unknown>) => StoredRecord } {
    const positions = [0];
    for (const field of select) {
      const index = this.columns.indexOf(field);
      if (index > 0 && !positions.includes(index)) positions.push(index);
    }
    const columns = positions.map((index) => this.columns[index] as string);
    const readers = positions.map((index) => this.#readers[index] as Reader);
    const toRecord = (row: Record<string, unknown>) => {
      const record: Record<string, StoredValue> = {};
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i] as string];
        record[columns[i] as string] = value === null || value === undefined ? null : (readers[i] as Reader)(value);
      }
      return record as StoredRecord;
    };
    return { columns, toRecord };
  }

  /** One value of `field` as the driver answered it (a group's value, a `MIN`, a `MAX`), in the record's form. */
  read(field: string, value: unknown): StoredValue {
    if (value === null || value === undefined) return null;
    return (this.#readers[this.columns.indexOf(field)] as Reader)(value);
  }

  /** A value of `field` as a query parameter. */
  toParameter(field: string, value: Scalar): unknown {
    if (value === null) return null;
    const writer = this.#writers.get(field) as Writer;
    // A statement's template (see execute/shapes.ts) writes its values when each call fills them in.
    return (value as unknown) instanceof Slot ? (value as unknown as Slot).through(writer) : writer(value);
  }

  /**
   * The columns to write: only attributes of the schema, only those given; the id only when the
   * store is given it (a uuid on create). `create` also writes the declared defaults, so that the
   * record is the same as in every store even when the column has no SQL default. A searchable
   * field brings its words column along.
   */
  toColumns(values: Readonly<Partial<StoredRecord>>, create: boolean): Record<string, unknown> {
    const columns: Record<string, unknown> = {};
    for (const attribute of this.#writable) {
      const { name } = attribute;
      let value = values[name];
      if (name === 'id' && (!create || attribute.type !== 'uuid')) continue;
      if (value === undefined) {
        if (!create || attribute.default === undefined) continue;
        value = attribute.default;
      }
      columns[name] = value === null ? null : (this.#writers.get(name) as Writer)(value);
    }
    // The words of the searchable fields written, in the same statement (see search-sql.ts).
    if (this.#schema.search) Object.assign(columns, wordsColumns(this.#schema, values, create, this.#dialect));
    return columns;
  }
}
