import type { CollectionSchema } from './types.js';

/**
 * Sorts collections so that every referenced one comes before those referring to it (a table
 * must exist before a foreign key names it), keeping the given order otherwise. A collection may
 * refer to itself; `schemaOf` finds the schema of an item (the item itself by default).
 *
 * @throws Error when collections refer to each other in a cycle, naming it: no order of their
 * creation satisfies every foreign key, so every store and `createApi` refuse it alike.
 * @example
 * ```ts
 * referencedFirst([books, authors]).map((schema) => schema.name); // ['authors', 'books']
 * referencedFirst(mounted, (resource) => resource.schema); // any item that has a schema
 * ```
 */
export function referencedFirst<T = CollectionSchema>(
  items: readonly T[],
  schemaOf: (item: T) => CollectionSchema = (item) => item as CollectionSchema,
): T[] {
  const byName = new Map(items.map((item) => [schemaOf(item).name, item]));
  const sorted: T[] = [];
  // By item: two resources of one collection name (on two stores) are both kept.
  const state = new Map<T, 'visiting' | 'done'>();
  const visit = (item: T, path: readonly string[]) => {
    const schema = schemaOf(item);
    const seen = state.get(item);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new Error(`Collections refer to each other in a cycle (${[...path, schema.name].join(' → ')})`);
    }
    state.set(item, 'visiting');
    for (const key of schema.references ?? []) {
      const target = byName.get(key.collection);
      if (target !== undefined && key.collection !== schema.name) visit(target, [...path, schema.name]);
    }
    state.set(item, 'done');
    sorted.push(item);
  };
  for (const item of items) visit(item, []);
  return sorted;
}
