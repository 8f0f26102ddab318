import type { CollectionSchema, Id, StoredRecord, StoredValue } from '@resourcery/core/store';
import type { StoreCatalog } from '../ddl/catalog.js';
import type { CollectionPlan, Db } from '../store/collection-plan.js';
import { lockedRecords } from './capture.js';

// What a destroy does to the records of live collections besides its own, through the
// database's foreign keys: the records its `cascade` keys destroy (and theirs, key after key),
// the records whose `nullify` key it empties, and the records whose set of ids (`labelIds`)
// loses it when its join rows go. Read (and locked) before the DELETE, which the database then
// carries out.

/** One record of a live collection that a destroy changes besides its own. */
export interface Effect {
  readonly schema: CollectionSchema;
  readonly kind: 'destroyed' | 'updated';
  readonly before: StoredRecord;
  readonly after: StoredRecord | null;
}

/** The live collections whose sets of ids hold records of `collection`, with each such set. */
function setsHolding(catalog: StoreCatalog, collection: string) {
  const found: { schema: CollectionSchema; field: string; through: string; key: string; value: string }[] = [];
  for (const schema of catalog.schemas()) {
    if (!schema.live) continue;
    for (const set of schema.sets ?? []) {
      const join = catalog.schema(set.through);
      const key = join?.references?.find((one) => one.field === set.value);
      if (key?.collection === collection && key.onDelete === 'cascade') found.push({ schema, ...set });
    }
  }
  return found;
}

/** What {@link reachesLive} answered, per catalog, while the catalog stays at that version. */
const reached = new WeakMap<StoreCatalog, { version: number; answers: Map<string, boolean> }>();

/**
 * Whether destroying a record of `collection` may change a record of a live collection other
 * than itself (remembered until the catalog learns another schema).
 *
 * @example
 * ```ts
 * if (reachesLive(catalog, 'labels')) await destroyEffects(plan, planOf, tx, [id]);
 * ```
 */
export function reachesLive(catalog: StoreCatalog, collection: string): boolean {
  let known = reached.get(catalog);
  if (known?.version !== catalog.version) {
    known = { version: catalog.version, answers: new Map() };
    reached.set(catalog, known);
  }
  let answer = known.answers.get(collection);
  if (answer === undefined) {
    answer = reaches(catalog, collection, new Set());
    known.answers.set(collection, answer);
  }
  return answer;
}

function reaches(catalog: StoreCatalog, collection: string, seen: Set<string>): boolean {
  if (seen.has(collection)) return false;
  seen.add(collection);
  if (setsHolding(catalog, collection).length > 0) return true;
  for (const { from, key } of catalog.referencesTo(collection)) {
    if (key.onDelete === 'restrict') continue;
    if (from.live || (key.onDelete === 'cascade' && reaches(catalog, from.name, seen))) return true;
  }
  return false;
}

/**
 * The changes that destroying the records `ids` of `plan`'s collection makes to records of live
 * collections through foreign keys and join rows (none, without a statement, when no live
 * collection can be reached), read on `tx` before the DELETE.
 *
 * @example
 * ```ts
 * const effects = await destroyEffects(plan, planOf, tx, [id]);
 * ```
 */
export async function destroyEffects(
  plan: CollectionPlan,
  planOf: (schema: CollectionSchema) => CollectionPlan,
  tx: Db,
  ids: readonly Id[],
): Promise<Effect[]> {
  const { catalog } = plan;
  if (!reachesLive(catalog, plan.schema.name)) return [];
  const effects: Effect[] = [];
  const gone = new Set<string>();
  const walk = async (collection: string, destroyed: readonly Id[]): Promise<void> => {
    if (destroyed.length === 0) return;
    for (const set of setsHolding(catalog, collection)) {
      const join = tx.selectFrom(catalog.table(set.through)).select(set.key).where(set.value, 'in', destroyed);
      const holders = (await join.execute()).map((row) => (row as Record<string, Id>)[set.key] as Id);
      const lost = new Set(destroyed);
      for (const before of await lockedRecords(planOf(set.schema), tx, [...new Set(holders)])) {
        const kept = (before[set.field] as unknown as Id[]).filter((id) => !lost.has(id));
        effects.push({
          schema: set.schema,
          kind: 'updated',
          before,
          after: { ...before, [set.field]: kept as unknown as StoredValue },
        });
      }
    }
    for (const { from, key } of catalog.referencesTo(collection)) {
      if (key.onDelete === 'restrict') continue;
      const fromPlan = planOf(from);
      if (key.onDelete === 'nullify') {
        if (!from.live) continue;
        for (const before of await lockedRecords(fromPlan, tx, destroyed, key.field)) {
          effects.push({
            schema: from,
            kind: 'updated',
            before,
            after: { ...before, [key.field]: null as StoredValue },
          });
        }
        continue;
      }
      if (!from.live && !reachesLive(catalog, from.name)) continue;
      let children: Id[];
      if (from.live) {
        const records = await lockedRecords(fromPlan, tx, destroyed, key.field);
        for (const before of records) effects.push({ schema: from, kind: 'destroyed', before, after: null });
        children = records.map((record) => record.id);
      } else {
        const rows = await tx.selectFrom(fromPlan.table).select('id').where(key.field, 'in', destroyed).execute();
        children = rows.map((row) => (row as { id: Id }).id);
      }
      // A collection referring to itself: each record once.
      const fresh = children.filter((id) => !gone.has(`${from.name}\u0000${id}`));
      for (const id of fresh) gone.add(`${from.name}\u0000${id}`);
      await walk(from.name, fresh);
    }
  };
  await walk(plan.schema.name, ids);
  return effects;
}
