import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FORBIDDEN_NAMES } from '../../contract/problems.js';
import { echo } from '../../errors/echo.js';
import { BadRequestError, type FieldErrors, ValidationError } from '../../errors/http-error.js';
import { isStorableString } from '../../schema/convert.js';
import type { ModelClass } from '../../schema/infer-attributes.js';
import type { AttributeSchema, StoredValue } from '../../schema/types.js';
import { validationErrors } from './class-validation.js';
import { SentNumbers } from './sent-numbers.js';
import { toInstance } from './to-instance.js';
import { isPlainObject, typed } from './typed-value.js';

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
function attributeValue(
  rules: InputRules,
  field: string,
  value: unknown,
  sent: SentNumbers,
): { value: StoredValue } | { error: string } {
  const attribute = rules.attributes.get(field);
  if (rules.readOnly.has(field)) return { error: 'is read-only' };
  if (!attribute || !rules.writable.has(field)) return { error: `cannot be ${rules.partial ? 'changed' : 'set'}` };
  if (value === null) return attribute.nullable ? { value } : { error: 'must not be null' };
  const result = typed(attribute, value, sent);
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
  let wrapped = false;
  if (isPlainObject(input) && Object.hasOwn(input, wrapper) && !rules.attributes.has(wrapper)) {
    if (Object.keys(input).length === 1) {
      input = input[wrapper];
      wrapped = true;
    }
  }
  if (!isPlainObject(input)) {
    throw new BadRequestError(
      `The request body must be a JSON object, like {"${rules.wrapper}": {...}}`,
      'malformed_body',
    );
  }

  const members = input;
  const sent = new SentNumbers(body, wrapped ? wrapper : undefined);
  const errors: FieldErrors = Object.create(null);
  const accepted: Record<string, unknown> = {};
  const checked = new Set<string>();
  const check = (field: string) => {
    checked.add(field);
    const result = attributeValue(rules, field, members[field], sent);
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
