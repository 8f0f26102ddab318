import { BadRequestError } from '../errors/http-error.js';
import type { Scalar, StoredValue } from '../schema/types.js';
import type { ListQuery, StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';
import type { LinkedRelation } from './link.js';
import { readableOf } from './related.js';
import { renderRecord } from './render.js';

type Rec = RecordOf<Record<string, unknown>>;

function distinct(values: Iterable<unknown>): Scalar[] {
  const seen = new Set<Scalar>();
  for (const value of values) if (value !== null && value !== undefined) seen.add(value as Scalar);
  return [...seen];
}

/** The ids a record holds of a many-to-many relation. */
function idsHeld(record: Rec, relation: LinkedRelation): StoredValue[] {
  return (record[relation.foreignKey] as StoredValue[] | null | undefined) ?? [];
}

/**
 * One query of the target for the records of one relation of a page: at most `most` of them
 * (one more tells that the page would include too many).
 */
async function load(
  relation: LinkedRelation,
  ctx: Context,
  records: readonly Rec[],
  most: number,
): Promise<StoredRecord[]> {
  const belongs = relation.kind !== 'hasMany';
  const keys =
    relation.kind === 'manyToMany'
      ? distinct(records.flatMap((record) => (record[relation.foreignKey] as unknown[] | null) ?? []))
      : distinct(records.map((record) => (belongs ? record[relation.foreignKey] : record.id)));
  if (keys.length === 0) return [];
  const query: ListQuery = {
    // What the caller's own index of the target would list: its access, archive and scope.
    where: [
      { field: belongs ? 'id' : relation.foreignKey, values: keys },
      ...(await readableOf(ctx, relation.target, 'include')),
    ],
    order: [{ field: 'id', direction: 'asc' }],
    limit: Math.min(belongs ? keys.length : keys.length * relation.limit, most + 1),
    offset: 0,
    count: false,
    ...(belongs ? {} : { perGroup: { field: relation.foreignKey, limit: relation.limit } }),
  };
  const collection = ctx.collectionOf(relation.target.compiled.resource);
  return (await collection.list(query)).records as StoredRecord[];
}

/**
 * Adds the relations named by `include` to rendered records: a belongs-to as the related record
 * (or `null`), a has-many and a many-to-many as an array ordered by id. Each relation costs one store query for
 * the whole page, never one per record; the related records are rendered by their own resource.
 */
export async function addIncluded(
  ctx: Context,
  names: readonly string[],
  records: readonly Rec[],
  rendered: Record<string, unknown>[],
): Promise<void> {
  const relations = ctx.mounted?.self.relations;
  if (!relations || names.length === 0 || records.length === 0) {
    for (const name of names)
      for (const out of rendered) out[name] = relations?.get(name)?.kind === 'belongsTo' ? null : [];
    return;
  }
  const most = ctx.compiled.limits.included;
  const loaded = await Promise.all(
    names.map(async (name) => {
      const relation = relations.get(name) as LinkedRelation;
      return { name, relation, found: await load(relation, ctx, records, most) };
    }),
  );
  // Counted as the answer holds them: a belongs-to once per record that has one, a child once.
  let count = 0;
  for (const { relation, found } of loaded) {
    if (relation.kind === 'hasMany') count += found.length;
    else if (relation.kind === 'manyToMany') {
      const ids = new Set<StoredValue>(found.map((record) => record.id));
      for (const record of records) count += idsHeld(record, relation).filter((id) => ids.has(id)).length;
    } else {
      const ids = new Set<StoredValue>(found.map((record) => record.id));
      for (const record of records) if (ids.has(record[relation.foreignKey] as StoredValue)) count++;
    }
  }
  if (count > most) {
    throw new BadRequestError(
      `include: this answer would hold more than ${most} included records; ask for fewer records per page (per_page) or fewer relations`,
      'invalid_query',
    );
  }
  for (const { name, relation, found } of loaded) {
    // Rendered by the target's own render step, for what the caller may read of it.
    const related = ctx.relatedTo(relation.target);
    const render = (record: StoredRecord) => renderRecord(related, record as Rec);
    if (relation.kind === 'manyToMany') {
      // Each record's linked records, in its ids' (ascending) order, those the caller may read.
      const byId = new Map<StoredValue, Record<string, unknown>>(found.map((record) => [record.id, render(record)]));
      records.forEach((record, i) => {
        const linked = idsHeld(record, relation).flatMap((id) => byId.get(id) ?? []);
        (rendered[i] as Record<string, unknown>)[name] = linked;
      });
      continue;
    }
    if (relation.kind === 'belongsTo') {
      const byId = new Map<StoredValue, Record<string, unknown>>(found.map((record) => [record.id, render(record)]));
      records.forEach((record, i) => {
        (rendered[i] as Record<string, unknown>)[name] = byId.get(record[relation.foreignKey] as StoredValue) ?? null;
      });
      continue;
    }
    const groups = new Map<StoredValue, Record<string, unknown>[]>();
    for (const record of found) {
      const key = record[relation.foreignKey] as StoredValue;
      const group = groups.get(key);
      if (group) group.push(render(record));
      else groups.set(key, [render(record)]);
    }
    records.forEach((record, i) => {
      (rendered[i] as Record<string, unknown>)[name] = groups.get(record.id) ?? [];
    });
  }
}
