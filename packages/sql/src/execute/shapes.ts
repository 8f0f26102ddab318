import type { Condition, Id, ListQuery, Scalar } from '@resourcery/core/store';
import type { Compilable, CompiledQuery } from 'kysely';

/**
 * A value of one call, standing in a statement's template: the template is built and compiled
 * with slots where the call's values go, and each call fills them in order. A slot that passes
 * through a column's writer (a decimal scaled, a boolean as 0/1) carries the writer along.
 */
export class Slot {
  constructor(
    readonly index: number,
    readonly write?: (value: never) => unknown,
  ) {}

  /** The slot whose value is written by `write` first. */
  through(write: (value: never) => unknown): Slot {
    return new Slot(this.index, write);
  }

  read(values: readonly unknown[]): unknown {
    const value = values[this.index];
    return this.write ? this.write(value as never) : value;
  }
}

/** How many shapes a collection keeps compiled; others are built for each call. */
const MAX_SHAPES = 256;

interface Template {
  readonly compiled: CompiledQuery;
  /** Whether a parameter is a slot, per position. */
  readonly slotted: readonly boolean[];
}

/**
 * The statements of one collection compiled once per shape: a show, a page of a given filter,
 * order and size, an update of given columns. Building a query with Kysely and compiling it
 * costs more CPU than the database spends on a lookup by key; a shape seen before costs a map
 * lookup and an array of parameters.
 *
 * @example
 * ```ts
 * const shapes = new Shapes();
 * const query = shapes.compiled('find:', [42], (values) => db.selectFrom('books').selectAll().where('id', '=', values[0]));
 * ```
 */
export class Shapes {
  /** `null`: a key whose statement is built for each call. */
  readonly #templates = new Map<string, Template | null>();

  /** How many shapes are kept compiled. */
  get size(): number {
    let kept = 0;
    for (const template of this.#templates.values()) if (template) kept++;
    return kept;
  }

  /**
   * The statement `build(values)` compiles to. With a `key`, the statement is compiled once for
   * that key, with {@link Slot}s for the values, and later calls only fill in their values:
   * `build` must then give the same SQL for every call of the key, whatever the values (the key
   * tells everything the SQL depends on, and `build` only passes the values on as parameters).
   * `null` values are never slots: the SQL of `IS NULL` differs, so keys tell where they are.
   */
  compiled(key: string | undefined, values: readonly unknown[], build: (values: readonly unknown[]) => Compilable) {
    let template = key === undefined ? null : this.#templates.get(key);
    if (template === undefined && this.#templates.size >= MAX_SHAPES) template = null;
    if (template === undefined) {
      const compiled = build(values.map((value, index) => (value === null ? null : new Slot(index)))).compile();
      const slotted = compiled.parameters.map((parameter) => parameter instanceof Slot);
      // A builder that looked at a value (not only passed it on) compiles the template to other
      // SQL than the call's own: such a shape is built for each call.
      const own = build(values).compile();
      const filled = fill({ compiled, slotted }, values);
      const same =
        own.sql === compiled.sql &&
        own.parameters.length === filled.parameters.length &&
        own.parameters.every((parameter, index) => Object.is(parameter, filled.parameters[index]));
      template = same && slotted.includes(true) ? { compiled, slotted } : null;
      this.#templates.set(key as string, template);
      return own;
    }
    return template === null ? build(values).compile() : fill(template, values);
  }
}

/** The template's statement with the call's values in its slots. */
function fill({ compiled, slotted }: Template, values: readonly unknown[]): CompiledQuery {
  const parameters = compiled.parameters.map((parameter, index) =>
    slotted[index] ? (parameter as Slot).read(values) : parameter,
  );
  return { ...compiled, parameters };
}

/** Operators whose SQL does not depend on their value (beyond it being `null`); `null`'s is in the key. */
const PLAIN = new Set<Condition['op']>([undefined, 'ne', 'gt', 'gte', 'lt', 'lte']);

/** The key part of values: their number and where the nulls are. */
function nulls(values: readonly unknown[]): string {
  let mask = '';
  for (const value of values) mask += value === null ? 'n' : 'v';
  return mask;
}

/**
 * The shape of conditions as a key, and their values in order (each condition's own, then those
 * of the conditions a relation filter nests, depth first); no key when their SQL depends on more
 * than that (`prefix`, `contains`, a search, at any depth). The operand of `null` is part of the
 * key, not a value.
 */
export function conditionShape(where: readonly Condition[]): { key: string | undefined; values: Scalar[] } {
  let key: string | undefined = '';
  const values: Scalar[] = [];
  for (const { field, op, values: own, related, search } of where) {
    let part: string | undefined;
    // `IS NULL` or `IS NOT NULL`: the operand is the SQL's, in the key, never a value.
    if (op === 'null') {
      key = key === undefined ? undefined : `${key}${JSON.stringify(field)}null${own[0] === true};`;
      continue;
    }
    values.push(...own);
    if (related) {
      const nested = conditionShape(related.where);
      values.push(...nested.values);
      const through = `${JSON.stringify(related.collection)}.${JSON.stringify(related.key ?? 'id')}`;
      part = nested.key === undefined || op !== undefined ? undefined : `${through}(${nested.key})`;
    } else if (!search && PLAIN.has(op)) part = `${op ?? 'in'}${nulls(own)}`;
    key = key === undefined || part === undefined ? undefined : `${key}${JSON.stringify(field)}${part};`;
  }
  return { key, values };
}

/** Conditions with the same shape as `where` and the given values (in order, from `start`). */
export function withValues(where: readonly Condition[], values: readonly unknown[], start: number): Condition[] {
  return filled(where, values, start).where;
}

/** {@link withValues}, and the position of the next value. */
function filled(
  where: readonly Condition[],
  values: readonly unknown[],
  start: number,
): { where: Condition[]; next: number } {
  let next = start;
  const conditions = where.map((condition) => {
    if (condition.op === 'null') return condition; // its operand is in the key (see conditionShape)
    const own = condition.values.map(() => values[next++] as Scalar);
    if (!condition.related) return { ...condition, values: own };
    const nested = filled(condition.related.where, values, next);
    next = nested.next;
    return { ...condition, values: own, related: { ...condition.related, where: nested.where } };
  });
  return { where: conditions, next };
}

/**
 * What a per-group list adds to its key: the field and the limit. Its SQL has one part per
 * distinct value of its `IN` on the field (see query/per-group.ts), so a list whose values repeat one
 * gets no key (the number of values, in the conditions' key, would not tell the SQL).
 */
function perGroupKey(query: ListQuery): string | undefined {
  const { perGroup } = query;
  if (!perGroup) return '-';
  for (const { field, op, values, related } of query.where) {
    if (field === perGroup.field && op === undefined && !related && new Set(values).size !== values.length) {
      return undefined;
    }
  }
  return `${JSON.stringify(perGroup.field)}:${perGroup.limit}`;
}

/**
 * The shape of a list query as a key and its values (conditions, keyset position, limit,
 * offset); no key for the shapes built for each call (`prefix`, a search...).
 */
export function listShape(query: ListQuery, columns: readonly string[]) {
  const conditions = conditionShape(query.where);
  const after = query.after ?? [];
  const order = query.order.map(({ field, direction }) => `${JSON.stringify(field)}${direction}`).join(',');
  const groups = perGroupKey(query);
  const key =
    groups === undefined || conditions.key === undefined
      ? undefined
      : `list:${columns.join(',')}|${conditions.key}|${order}|${query.after ? nulls(after) : '-'}` +
        `|${query.offset > 0}|${query.count === 'estimated' ? `~${query.estimateAbove}` : query.count}|${groups}`;
  const values: unknown[] = [...conditions.values, ...after, query.limit];
  if (query.offset > 0) values.push(query.offset);
  return { key, values };
}

/** The list query that {@link listShape}'s values (or their slots) stand for. */
export function listWithValues(query: ListQuery, values: readonly unknown[]): ListQuery {
  const { where, next: first } = filled(query.where, values, 0);
  let next = first;
  const after = query.after?.map(() => values[next++] as Scalar);
  return {
    ...query,
    where,
    ...(after ? { after } : {}),
    limit: values[next++] as number,
    // Whether there is an OFFSET is part of the key: the query's own offset tells it.
    offset: query.offset > 0 ? (values[next] as number) : 0,
  };
}

/**
 * The key of a write of the given columns on the record `id` within `where` (none when the
 * conditions have none), and its values: the columns', the id, the conditions'.
 */
export function writeShape(operation: string, columns: Record<string, unknown>, id: Id, where: readonly Condition[]) {
  const conditions = conditionShape(where);
  const names = Object.keys(columns).map((name) => JSON.stringify(name));
  const key =
    conditions.key === undefined
      ? undefined
      : `${operation}:${names.join(',')}|${nulls(Object.values(columns))}|${conditions.key}`;
  return { key, values: [...Object.values(columns), id, ...conditions.values] };
}

/** The columns with the given values, in their order (a statement's slots or a call's values). */
export function named(columns: Record<string, unknown>, values: readonly unknown[]): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  let index = 0;
  for (const name of Object.keys(columns)) filled[name] = values[index++];
  return filled;
}
