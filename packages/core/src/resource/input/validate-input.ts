import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FORBIDDEN_NAMES } from '../../contract/problems.js';
import { BadRequestError, type FieldErrors, ValidationError } from '../../errors/http-error.js';
import { isStorableString } from '../../schema/convert.js';
import type { ModelClass } from '../../schema/infer-attributes.js';
import type { AttributeSchema, Scalar } from '../../schema/types.js';
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
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(attribute: AttributeSchema, value: unknown): boolean {
  switch (attribute.type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
  }
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

/**
 * Validates a parsed JSON body for create (`partial: false`) or update (`partial: true`) and
 * answers the accepted values. The body is the flat object or the same wrapped under the
 * singular key. Fails with 400 when it is not an object, and with one 422 listing every offending
 * field: unknown, read-only or not writable in this action, `__proto__`/`constructor`, missing
 * when required, `null` when required, of the wrong type, or refused by a class-validator
 * decorator of the model.
 *
 * @example
 * ```ts
 * await validateInput({ name: 'Dune' }, rules); // throws ValidationError { author: ['is required'] }
 * ```
 */
export async function validateInput(body: unknown, rules: InputRules): Promise<Record<string, Scalar>> {
  let input = body;
  if (isPlainObject(input)) {
    const keys = Object.keys(input);
    if (keys.length === 1 && keys[0] === rules.wrapper && !rules.attributes.has(rules.wrapper)) {
      input = input[rules.wrapper];
    }
  }
  if (!isPlainObject(input)) {
    throw new BadRequestError(
      `The request body must be a JSON object, like {"${rules.wrapper}": {...}}`,
      'malformed_body',
    );
  }

  const errors: FieldErrors = Object.create(null);
  const accepted: Record<string, unknown> = {};
  for (const field of Object.keys(input)) {
    const value = input[field];
    const attribute = rules.attributes.get(field);
    if (FORBIDDEN_NAMES.has(field)) add(errors, field, 'is not allowed');
    else if (rules.readOnly.has(field)) add(errors, field, 'is read-only');
    else if (!attribute) add(errors, field, 'is not a known field');
    else if (!rules.writable.has(field)) add(errors, field, `cannot be ${rules.partial ? 'changed' : 'set'}`);
    else if (value === null && !attribute.nullable) add(errors, field, 'must not be null');
    else if (value !== null && !hasType(attribute, value)) add(errors, field, `must be ${article(attribute.type)}`);
    else if (typeof value === 'string' && !isStorableString(value)) {
      add(errors, field, 'must be well-formed Unicode text without NUL characters');
    } else accepted[field] = value;
  }
  if (!rules.partial) {
    for (const field of rules.writable) {
      const attribute = rules.attributes.get(field) as AttributeSchema;
      if (!attribute.nullable && input[field] === undefined) add(errors, field, 'is required');
    }
  }

  const instance = toInstance(rules, accepted);
  collect(errors, await validationErrors(instance));
  if (Object.keys(errors).length > 0) throw new ValidationError({ ...errors });

  const values: Record<string, Scalar> = {};
  for (const field of Object.keys(accepted)) values[field] = instance[field] as Scalar;
  return values;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
