import type { CollectionSchema, Scalar } from '../schema/types.js';
import type { StoredRecord } from './store.js';

/**
 * What a store adds to the values of its writes, worked out once per schema by
 * {@link serverValues}: the same for a request, a hook and a raw `store.transaction`.
 */
export interface ServerValues {
  /** Whether the schema asks for anything (a uuid id, a timestamp, a default); else both methods answer their argument. */
  readonly any: boolean;
  /**
   * The values of a create with the server's added: a new uuid id when the id is a uuid and none
   * is given, the `default` of each attribute left out, and the current time in every timestamp
   * attribute left out (one time for all of them). Values the caller gives are kept.
   */
  create(values: Readonly<Partial<StoredRecord>>): Partial<StoredRecord>;
  /**
   * The changes of an update with the current time in each `timestamp: 'update'` attribute when
   * they change something (at least one field given) and do not set it themselves.
   */
  update(changes: Readonly<Partial<StoredRecord>>): Partial<StoredRecord>;
}

/** The current time as every store keeps it: UTC with milliseconds. */
function now(): string {
  return new Date().toISOString();
}

function changesSomething(changes: Readonly<Partial<StoredRecord>>): boolean {
  for (const field in changes) if (changes[field] !== undefined) return true;
  return false;
}

const NOTHING: ServerValues = { any: false, create: (values) => values, update: (changes) => changes };

/**
 * The values a store sets on the writes of a collection, read from its schema: a uuid `id`
 * (`attributes[0].type === 'uuid'`), each attribute's `default`, and the attributes marked
 * `timestamp: 'create'` (set on create) or `timestamp: 'update'` (set on create and on every
 * update that changes something). Every store calls it in `collection(schema)` and in
 * `tx.collection(schema)` alike, so that a raw `store.transaction` stores what a request stores;
 * the core adds nothing of its own.
 *
 * @example
 * ```ts
 * const values = serverValues(schema);
 * const row = values.create({ title: 'Dune' }); // { title: 'Dune', id: '3f2b…', createdAt: '2024-…Z', format: 'paperback' }
 * const changes = values.update({ title: 'Dune Messiah' }); // { title: 'Dune Messiah', updatedAt: '2024-…Z' }
 * ```
 */
export function serverValues(schema: CollectionSchema): ServerValues {
  const uuid = schema.attributes[0]?.type === 'uuid';
  const defaults: [string, Scalar][] = [];
  const created: string[] = [];
  const updated: string[] = [];
  for (const attribute of schema.attributes) {
    if (attribute.name === 'id') continue;
    if (attribute.default !== undefined) defaults.push([attribute.name, attribute.default]);
    if (attribute.timestamp === 'create' || attribute.timestamp === 'update') created.push(attribute.name);
    if (attribute.timestamp === 'update') updated.push(attribute.name);
  }
  if (!uuid && defaults.length === 0 && created.length === 0) return NOTHING;
  return {
    any: true,
    create(values) {
      const filled: Partial<StoredRecord> = { ...values };
      if (uuid && filled.id === undefined) filled.id = crypto.randomUUID();
      for (const [field, value] of defaults) if (filled[field] === undefined) filled[field] = value;
      if (created.length > 0) {
        const time = now();
        for (const field of created) if (filled[field] === undefined) filled[field] = time;
      }
      return filled;
    },
    update(changes) {
      if (updated.length === 0 || !changesSomething(changes)) return changes;
      const filled: Partial<StoredRecord> = { ...changes };
      const time = now();
      for (const field of updated) if (filled[field] === undefined) filled[field] = time;
      return filled;
    },
  };
}
