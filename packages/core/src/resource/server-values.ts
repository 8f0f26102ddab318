import { convertValue } from '../schema/convert.js';
import type { AttributeSchema, Id, Scalar } from '../schema/types.js';
import type { Collection, StoredRecord } from '../store/store.js';

/** What the server sets on the writes of a resource, whoever writes (an action or a hook). */
export interface ServerValues {
  /** Whether ids are uuids the server assigns. */
  readonly uuid: boolean;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** The timestamp attributes (read-only for clients). */
  readonly timestamps: readonly string[];
  /** Values of attributes a create leaves out. */
  readonly defaults: Readonly<Record<string, Scalar>>;
}

interface TimestampOptions {
  readonly timestamps?: boolean | { createdAt?: boolean; updatedAt?: boolean };
}

/** The server-set values a resource declares (`id`, `timestamps`; defaults are added by {@link withModelAttributes}). */
export function serverValuesOf(name: string, options: TimestampOptions, inferred: readonly AttributeSchema[]) {
  const declared = options.timestamps;
  const wanted = declared === true ? {} : declared || undefined;
  const createdAt = wanted && wanted.createdAt !== false ? 'createdAt' : undefined;
  const updatedAt = wanted && wanted.updatedAt !== false ? 'updatedAt' : undefined;
  const timestamps = [createdAt, updatedAt].filter((field): field is string => field !== undefined);
  for (const field of timestamps) {
    const type = inferred.find((attribute) => attribute.name === field)?.type;
    if (type !== undefined && type !== 'date-time' && type !== 'string') {
      throw new TypeError(`defineResource(${name}): ${field} is a timestamp, so it must be a date-time (got ${type})`);
    }
  }
  return { uuid: inferred[0]?.type === 'uuid', createdAt, updatedAt, timestamps, defaults: {} } as ServerValues;
}

/**
 * The attributes with the timestamps (date-time, never null) and each declared default, checked
 * against its attribute and put in canonical form.
 */
export function withModelAttributes(
  name: string,
  inferred: readonly AttributeSchema[],
  server: ServerValues,
  declaredDefaults: Readonly<Record<string, unknown>> | undefined,
): AttributeSchema[] {
  const list = inferred.filter((attribute) => !server.timestamps.includes(attribute.name));
  for (const field of server.timestamps) list.push({ name: field, type: 'date-time', nullable: false });
  const defaults = server.defaults as Record<string, Scalar>;
  for (const [field, value] of Object.entries(declaredDefaults ?? {})) {
    const index = list.findIndex((attribute) => attribute.name === field);
    const attribute = list[index];
    if (!attribute || field === 'id' || server.timestamps.includes(field)) {
      throw new TypeError(`defineResource(${name}): defaults.${field} is not a field that can have a default`);
    }
    const canonical = value === null ? null : convertValue(attribute, String(value));
    if (
      canonical === undefined ||
      (value === null && !attribute.nullable) ||
      (typeof value === 'object' && value !== null)
    ) {
      throw new TypeError(`defineResource(${name}): defaults.${field} is not a valid ${attribute.type}`);
    }
    defaults[field] = canonical;
    list[index] = { ...attribute, default: canonical };
  }
  return list;
}

/** The current time as every store keeps it: UTC with milliseconds. */
function now(): string {
  return new Date().toISOString();
}

/** The values of a create, with the server's: a new uuid, the timestamps, the defaults. */
export function createValues(server: ServerValues, values: Readonly<Partial<StoredRecord>>): Partial<StoredRecord> {
  const filled: Partial<StoredRecord> = { ...values };
  for (const [field, value] of Object.entries(server.defaults)) if (filled[field] === undefined) filled[field] = value;
  if (server.uuid && filled.id === undefined) filled.id = crypto.randomUUID();
  const time = server.timestamps.length > 0 ? now() : undefined;
  for (const field of server.timestamps) filled[field] = time;
  return filled;
}

/** The changes of an update, with a new `updatedAt` when they change something. */
export function updateValues(server: ServerValues, changes: Readonly<Partial<StoredRecord>>): Partial<StoredRecord> {
  if (!server.updatedAt || Object.keys(changes).length === 0) return changes;
  return { ...changes, [server.updatedAt]: now() };
}

/** Whether a resource's writes need {@link withServerValues}. */
export function setsValues(server: ServerValues): boolean {
  return server.uuid || server.timestamps.length > 0 || Object.keys(server.defaults).length > 0;
}

/**
 * A collection that adds the server's values to every create and update, so that an action, a
 * step and a hook writing through `ctx.collectionOf()` store the same thing.
 */
export function withServerValues(collection: Collection, server: ServerValues): Collection {
  if (!setsValues(server)) return collection;
  const wrapped: Collection = {
    schema: collection.schema,
    list: (query) => collection.list(query),
    find: (id: Id, where) => collection.find(id, where),
    create: (values) => collection.create(createValues(server, values)),
    update: (id: Id, changes, where) => collection.update(id, updateValues(server, changes), where),
    destroy: (id: Id, where) => collection.destroy(id, where),
    transaction: (work) => collection.transaction((inner) => work(withServerValues(inner, server))),
  };
  return wrapped;
}
