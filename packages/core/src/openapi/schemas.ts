import { getMetadataStorage } from 'class-validator';
import type { CompiledResource } from '../resource/compile.js';
import type { AttributeSchema } from '../schema/types.js';
import { type Direction, idSchema, typeSchema } from './value-types.js';

/**
 * A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1).
 *
 * @example
 * ```ts
 * const schema: JsonSchema = { type: 'string', maxLength: 500 };
 * ```
 */
export type JsonSchema = { [keyword: string]: unknown };

type Refine = (schema: JsonSchema, constraints: readonly unknown[], attribute: AttributeSchema) => void;

/**
 * Strings every store can hold: no NUL and no lone surrogate (refused with 422 in bodies, 400 in
 * filters). Surrogate pairs are spelled out so that the pattern means the same with or without
 * the regular expression's Unicode flag, whichever a tool uses.
 */
export const STORABLE_STRING = '^(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const numeric = (attribute: AttributeSchema) => attribute.type === 'integer' || attribute.type === 'number';

/**
 * What each class-validator decorator (by its metadata name) says about a value, in JSON Schema
 * terms. Decorators missing here still validate on the server; they only go undocumented.
 */
const REFINEMENTS: Record<string, Refine> = {
  isLength: (schema, [min, max]) => {
    if (finite(min) && min > 0) schema.minLength = min;
    if (finite(max)) schema.maxLength = max;
  },
  minLength: (schema, [min]) => {
    if (finite(min)) schema.minLength = min;
  },
  maxLength: (schema, [max]) => {
    if (finite(max)) schema.maxLength = max;
  },
  isNotEmpty: (schema, _, attribute) => {
    if (attribute.type === 'string') schema.minLength = Math.max(1, Number(schema.minLength ?? 0));
  },
  isEmail: (schema) => {
    schema.format = 'email';
  },
  isUrl: (schema) => {
    schema.format = 'uri';
  },
  // `@IsISO8601`, `@IsDateString`, `@IsUUID`, `@IsDecimal` and `@IsObject` give the attribute
  // its type, which says the rest (see `typeSchema`).
  isIn: (schema, [values]) => {
    if (Array.isArray(values)) schema.enum = [...values];
  },
  min: (schema, [value], attribute) => {
    if (finite(value) && numeric(attribute)) schema.minimum = value;
  },
  max: (schema, [value], attribute) => {
    if (finite(value) && numeric(attribute)) schema.maximum = value;
  },
  isPositive: (schema, _, attribute) => {
    if (numeric(attribute)) schema.exclusiveMinimum = 0;
  },
  isNegative: (schema, _, attribute) => {
    if (numeric(attribute)) schema.exclusiveMaximum = 0;
  },
  matches: (schema, [pattern, modifiers]) => {
    // A pattern with flags (`/x/i`) has no JSON Schema equivalent: leave it undocumented.
    if (modifiers) return;
    if (pattern instanceof RegExp && pattern.flags === '') schema.pattern = pattern.source;
    else if (typeof pattern === 'string') schema.pattern = pattern;
  },
};

/** Options of {@link valueSchema}. */
interface ValueOptions {
  /** Whether the value was checked against the model's limits (false for server-set fields). */
  readonly constraints: boolean;
  readonly nullable: boolean;
  readonly direction: Direction;
}

/** The value schema of an attribute from its type and decorators; `null` added when nullable. */
function valueSchema(
  attribute: AttributeSchema,
  constraints: readonly { name: string; constraints: readonly unknown[] }[],
  options: ValueOptions,
): JsonSchema {
  // The listed values (`@IsIn`, `@IsEnum`): the only ones a record holds, whoever wrote it.
  const schema: JsonSchema = attribute.values ? { enum: [...attribute.values] } : {};
  for (const entry of constraints) REFINEMENTS[entry.name]?.(schema, entry.constraints, attribute);
  if (!options.constraints) {
    // A field only the server sets was never checked against the model: its shape (type,
    // format, enum) holds, not necessarily the limits a client's value is checked against.
    for (const keyword of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      delete schema[keyword];
    }
    delete schema.pattern;
  }
  if (attribute.type === 'string' && options.constraints) {
    if (schema.pattern === undefined) schema.pattern = STORABLE_STRING;
    else schema.allOf = [{ pattern: STORABLE_STRING }];
  }
  if (attribute.type === 'integer' && options.constraints) {
    // The server takes integers only within JavaScript's safe range.
    schema.minimum ??= Number.MIN_SAFE_INTEGER;
    schema.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  const { type, pattern, ...shape } = typeSchema(attribute, options.direction);
  // The type's own pattern holds besides one a decorator gives.
  if (pattern !== undefined) {
    if (schema.pattern === undefined) schema.pattern = pattern;
    else schema.allOf = [...((schema.allOf as JsonSchema[] | undefined) ?? []), { pattern }];
  }
  const nullable = options.nullable && attribute.nullable;
  if (nullable && Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  return { type: nullable ? [type, 'null'].flat() : type, ...schema, ...shape };
}

/** The class-validator constraints of each property of a resource's model. */
function constraintsOf(compiled: CompiledResource): Map<string, { name: string; constraints: unknown[] }[]> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(compiled.resource.model, '', true, false);
  const byProperty = new Map<string, { name: string; constraints: unknown[] }[]>();
  for (const entry of metadata) {
    if (!entry.name || entry.each) continue;
    const list = byProperty.get(entry.propertyName) ?? [];
    list.push({ name: entry.name, constraints: entry.constraints ?? [] });
    byProperty.set(entry.propertyName, list);
  }
  return byProperty;
}

/** The three schemas of a resource: the record as shown, and the bodies of create and update. */
export interface ResourceSchemas {
  readonly output: JsonSchema;
  readonly createInput: JsonSchema;
  readonly updateInput: JsonSchema;
}

/** The ids of a many-to-many relation (`labelIds`): an array of ids, ascending in answers. */
function idsSchema(name: string, ids: { relation: string; limit: number }): JsonSchema {
  return {
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    description: `The ids of the ${ids.relation} (\`include=${ids.relation}\` adds the records), ascending in answers; a write sends the whole set (\`[]\` clears it, a repeated id counts once, at most ${ids.limit}), each an id of a record the caller may read (else 422 on \`${name}\`).`,
  };
}

/**
 * Builds a resource's component schemas from its compiled allow-lists and its model's
 * class-validator decorators: the record as responses show it (the `show` fields, `id` first,
 * every one present, optional ones `null` when unset, with the limits of the bodies for the
 * fields clients write; `id` and the timestamps read-only), the create body (the create-writable
 * fields, required unless `@IsOptional` or given a default) and the update body (the
 * update-writable fields, none required). Inputs refuse unknown members, as the server does.
 *
 * @example
 * ```ts
 * const { output, createInput, updateInput } = resourceSchemas(compiledResource(books));
 * createInput.required; // ['name', 'author']
 * ```
 */
export function resourceSchemas(compiled: CompiledResource): ResourceSchemas {
  const constraints = constraintsOf(compiled);
  const attribute = (name: string) => compiled.attributes.get(name) as AttributeSchema;
  const readOnly = compiled.create.readOnly;
  // Values of these fields were all checked against the model when a client wrote them, so
  // responses carry the same limits as the bodies (`maxLength`...).
  const validated = new Set([...compiled.create.writable, ...compiled.update.writable]);

  const { createdAt, updatedAt } = compiled.serverValues;
  const setBy: Record<string, string> = {};
  if (createdAt) setBy[createdAt] = 'Set by the server when the record is created';
  if (updatedAt) setBy[updatedAt] = 'Set by the server when the record is created and whenever a change changes it';

  const shownProperties: Record<string, JsonSchema> = {};
  for (const name of compiled.shown) {
    const ids = compiled.idSets.get(name);
    if (ids) {
      shownProperties[name] = { ...idsSchema(name, ids), uniqueItems: true };
      continue;
    }
    const checked = { constraints: validated.has(name), nullable: true, direction: 'output' } as const;
    shownProperties[name] =
      name === 'id'
        ? idSchema(compiled.attributes.get('id'))
        : {
            ...valueSchema(attribute(name), constraints.get(name) ?? [], checked),
            ...(readOnly.has(name) ? { readOnly: true } : {}),
            ...(setBy[name] ? { description: setBy[name] } : {}),
          };
  }
  const output: JsonSchema = { type: 'object', required: [...compiled.shown], properties: shownProperties };
  // The default render step shows exactly these fields; a custom one may show others.
  if (!compiled.steps.render) output.additionalProperties = false;

  const input = (writable: ReadonlySet<string>, partial: boolean): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, ids] of compiled.idSets) properties[name] = idsSchema(name, ids);
    for (const [name, schema] of compiled.attributes) {
      if (!writable.has(name)) continue;
      const options = { constraints: true, nullable: true, direction: 'input' } as const;
      properties[name] = valueSchema(schema, constraints.get(name) ?? [], options);
      // A create that leaves out a field with a default gets the default.
      if (!partial && schema.default !== undefined) properties[name].default = schema.default;
      if (!partial && !schema.nullable && schema.default === undefined) required.push(name);
    }
    return {
      type: 'object',
      ...(required.length > 0 ? { required } : {}),
      properties,
      additionalProperties: false,
    };
  };

  return {
    output,
    createInput: input(compiled.create.writable, false),
    updateInput: input(compiled.update.writable, true),
  };
}

/**
 * The schema of a filter value in the query string: the attribute's type without its input
 * limits (any storable string may be searched for) and without `null` (which cannot be filtered on).
 */
export function filterValueSchema(attribute: AttributeSchema): JsonSchema {
  if (attribute.type === 'integer') {
    return { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
  }
  return attribute.type === 'string' ? { type: 'string', pattern: STORABLE_STRING } : typeSchema(attribute, 'filter');
}
