import { convertValue } from '../schema/convert.js';
import type { AttributeSchema, Scalar } from '../schema/types.js';

/**
 * What the server sets on the writes of a resource, whoever writes (an action, a hook, a raw
 * store transaction). The stores set it, from the schema's attributes (`timestamp`, `default`,
 * a uuid `id`: see `serverValues` in `@resourcery/core/store`); the core reads it for the
 * OpenAPI document and to leave unchanged fields out of an update.
 */
export interface ResourceServerValues {
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
  return { uuid: inferred[0]?.type === 'uuid', createdAt, updatedAt, timestamps, defaults: {} } as ResourceServerValues;
}

/**
 * The attributes with the timestamps (date-time, never null, marked for the store to set) and
 * each declared default, checked against its attribute and put in canonical form.
 */
export function withModelAttributes(
  name: string,
  inferred: readonly AttributeSchema[],
  server: ResourceServerValues,
  declaredDefaults: Readonly<Record<string, unknown>> | undefined,
): AttributeSchema[] {
  const list = inferred.filter((attribute) => !server.timestamps.includes(attribute.name));
  for (const field of server.timestamps) {
    const timestamp = field === server.createdAt ? 'create' : 'update';
    list.push({ name: field, type: 'date-time', nullable: false, timestamp });
  }
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
    if (canonical !== null && attribute.values && !attribute.values.includes(canonical)) {
      throw new TypeError(`defineResource(${name}): defaults.${field} is not one of its values`);
    }
    defaults[field] = canonical;
    list[index] = { ...attribute, default: canonical };
  }
  return list;
}
