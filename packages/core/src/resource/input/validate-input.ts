import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FORBIDDEN_NAMES } from '../../contract/problems.js';
import { echo } from '../../errors/echo.js';
import { BadRequestError, type FieldErrors, ValidationError } from '../../errors/http-error.js';
import { convertValue, isStorableString, MAX_PRECISION } from '../../schema/convert.js';
import type { ModelClass } from '../../schema/infer-attributes.js';
import type { AttributeSchema, StoredValue } from '../../schema/types.js';
import { canonicalDecimal } from '../../schema/values.js';
import { validationErrors } from './class-validation.js';
import { toInstance } from './to-instance.js';

/** What the body of one write action may contain. */
export interface InputRules {
  readonly model: ModelClass;
  /** The singular key a body may be wrapped in: `{"book": {...}}`. */
  readonly wrapper: string;
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  /** Attributes the client may send in this action. */
  readonly writable: ReadonlySet<string>;
  /** Attributes the client may never send (at least `id`). */
  readonly readOnly: ReadonlySet<string>;
  /** Create: absent required attributes are errors. Update: only what is sent is checked. */
  readonly partial: boolean;
  /** Most fields that are not attributes a 422 lists by name (`Limits.unknownFields`). */
  readonly unknownFields: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether every string of a JSON value, keys included, can be stored (see `isStorableString`). */
function storableJson(value: unknown): boolean {
  if (typeof value === 'string') return isStorableString(value);
  if (typeof value !== 'object' || value === null) return true;
  for (const [key, member] of Object.entries(value)) if (!isStorableString(key) || !storableJson(member)) return false;
  return true;
}

const DECIMAL_PROBLEMS = {
  'not-decimal': 'must be a decimal number',
  'too-many-places': (scale: number) => `must have at most ${scale} decimal places`,
  'too-many-digits': (scale: number, precision: number) =>
    `must have at most ${precision - scale} digits before the decimal point`,
};

/**
 * The value to store for a JSON value of the attribute's type (canonical for the text-based
 * types), or the message saying what is wrong with it.
 */
function typed(attribute: AttributeSchema, value: unknown): { value: StoredValue } | { error: string } {
  const { type } = attribute;
  switch (type) {
    case 'string':
    case 'boolean':
    case 'integer':
    case 'number': {
      const ok =
        type === 'integer'
          ? Number.isSafeInteger(value)
          : type === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : typeof value === type;
      return ok ? { value: value as StoredValue } : { error: `must be ${article(type)}` };
    }
    case 'decimal': {
      const scale = attribute.scale ?? 0;
      const precision = attribute.precision ?? MAX_PRECISION;
      if (typeof value !== 'string' && typeof value !== 'number') return { error: DECIMAL_PROBLEMS['not-decimal'] };
      const result = canonicalDecimal(value, scale, precision);
      if (result.value !== undefined) return { value: result.value };
      const problem = DECIMAL_PROBLEMS[result.problem];
      return { error: typeof problem === 'string' ? problem : problem(scale, precision) };
    }
    case 'json':
      if (!isPlainObject(value)) return { error: 'must be a JSON object' };
      return storableJson(value) ? { value } : { error: 'must not contain malformed Unicode or NUL characters' };
    default: {
      const canonical = typeof value === 'string' ? convertValue(attribute, value) : undefined;
      if (canonical !== undefined) return { value: canonical };
      const expected = { 'date-time': 'an RFC 3339 date-time', date: 'a date (YYYY-MM-DD)', uuid: 'a uuid' }[type];
      return { error: `must be ${expected}` };
    }
  }
}

/**
 * The stored form of a JSON value for an attribute, or `undefined` when the attribute cannot
 * hold it: to compare a value a body sends with the one stored.
 *
 * @example
 * ```ts
 * canonicalValue({ name: 'price', type: 'decimal', nullable: true, scale: 2 }, 12.5); // '12.50'
 * ```
 */
export function canonicalValue(attribute: AttributeSchema, value: unknown): StoredValue | undefined {
  const result = typed(attribute, value);
  return 'value' in result ? result.value : undefined;
}

function add(errors: FieldErrors, field: string, message: string): void {
  if (!Object.hasOwn(errors, field)) errors[field] = [];
  (errors[field] as string[]).push(message);
}

function collect(errors: FieldErrors, failures: ClassValidatorError[], prefix = ''): void {
  for (const failure of failures) {
    const field = prefix + failure.property;
    for (const message of Object.values(failure.constraints ?? {})) add(errors, field, message);
    if (failure.children?.length) collect(errors, failure.children, `${field}.`);
  }
}

/** Whether a member of the body names an attribute of the model (`id` included), not an unknown name. */
function isAttribute(rules: InputRules, field: string): boolean {
  return !FORBIDDEN_NAMES.has(field) && (rules.attributes.has(field) || rules.readOnly.has(field));
}

/** The value to write for an attribute, or what is wrong with the value sent. */
function attributeValue(rules: InputRules, field: string, value: unknown): { value: StoredValue } | { error: string } {
  const attribute = rules.attributes.get(field);
  if (rules.readOnly.has(field)) return { error: 'is read-only' };
  if (!attribute || !rules.writable.has(field)) return { error: `cannot be ${rules.partial ? 'changed' : 'set'}` };
  if (value === null) return attribute.nullable ? { value } : { error: 'must not be null' };
  const result = typed(attribute, value);
  if (typeof value === 'string' && 'value' in result && !isStorableString(value)) {
    return { error: 'must be well-formed Unicode text without NUL characters' };
  }
  return result;
}

/** Code points of a string, the length every store and the contract count. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Validates a parsed JSON body for create (`partial: false`) or update (`partial: true`) and
 * answers the accepted values. The body is the flat object or the same wrapped under the
 * singular key. Fails with 400 when it is not an object, and with one 422 listing every offending
 * attribute: read-only or not writable in this action, missing when required, `null` when
 * required, of the wrong type, refused by a class-validator decorator of the model, or longer
 * than its `maxLength` in code points. Names that are not attributes (unknown ones,
 * `__proto__`/`constructor`) are listed up to `rules.unknownFields`, each shortened to 100
 * characters; beyond that the `detail` counts the rest and the model's decorators are not run,
 * so a body of many unknown keys costs little and gets a short answer.
 *
 * @example
 * ```ts
 * await validateInput({ name: 'Dune' }, rules); // throws ValidationError { author: ['is required'] }
 * ```
 */
export async function validateInput(body: unknown, rules: InputRules): Promise<Record<string, StoredValue>> {
  let input = body;
  const { wrapper } = rules;
  if (isPlainObject(input) && Object.hasOwn(input, wrapper) && !rules.attributes.has(wrapper)) {
    if (Object.keys(input).length === 1) input = input[wrapper];
  }
  if (!isPlainObject(input)) {
    throw new BadRequestError(
      `The request body must be a JSON object, like {"${rules.wrapper}": {...}}`,
      'malformed_body',
    );
  }

  const members = input;
  const errors: FieldErrors = Object.create(null);
  const accepted: Record<string, unknown> = {};
  const checked = new Set<string>();
  const check = (field: string) => {
    checked.add(field);
    const result = attributeValue(rules, field, members[field]);
    if ('error' in result) add(errors, field, result.error);
    else accepted[field] = result.value;
  };
  const keys = Object.keys(members);
  let unknown = 0;
  for (const field of keys) {
    if (isAttribute(rules, field)) check(field);
    else if (++unknown > rules.unknownFields) break;
    else add(errors, echo(field), FORBIDDEN_NAMES.has(field) ? 'is not allowed' : 'is not a known field');
  }
  if (unknown > rules.unknownFields) {
    // Past the cap the other members are not read one by one: the model's attributes among them
    // are found by name, and the rest only counted.
    let present = 0;
    for (const field of new Set([...rules.attributes.keys(), ...rules.readOnly])) {
      if (!isAttribute(rules, field) || !Object.hasOwn(members, field)) continue;
      present++;
      if (!checked.has(field)) check(field);
    }
    unknown = keys.length - present;
  }
  if (!rules.partial) {
    for (const field of rules.writable) {
      const attribute = rules.attributes.get(field) as AttributeSchema;
      if (!attribute.nullable && attribute.default === undefined && members[field] === undefined) {
        add(errors, field, 'is required');
      }
    }
  }
  const unlisted = unknown - rules.unknownFields;
  if (unlisted > 0) {
    const listed = Object.keys(errors).join(', ');
    throw new ValidationError(
      { ...errors },
      `The request body has invalid fields: ${listed}; it has ${unknown} unknown fields, of which errors lists the first ${rules.unknownFields}`,
    );
  }

  const instance = toInstance(rules, accepted);
  collect(errors, await validationErrors(instance));
  // class-validator counts a character and its variation selector as one; every store counts both.
  for (const field of Object.keys(accepted)) {
    const value = instance[field];
    const max = rules.attributes.get(field)?.maxLength;
    if (typeof value === 'string' && max !== undefined && value.length > max && !Object.hasOwn(errors, field)) {
      if (codePoints(value) > max) add(errors, field, `must be at most ${max} characters long`);
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError({ ...errors });

  const values: Record<string, StoredValue> = {};
  for (const field of Object.keys(accepted)) values[field] = instance[field] as StoredValue;
  return values;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
