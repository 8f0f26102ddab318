import * as classValidator from 'class-validator';
import {
  type ValidationError as ClassValidatorError,
  getMetadataStorage,
  type ValidationArguments,
  ValidationTypes,
  type ValidatorOptions,
  validate,
} from 'class-validator';

/** The options every model is validated with: only what was sent is checked, errors do not carry the input. */
const OPTIONS: ValidatorOptions = {
  skipUndefinedProperties: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
type Constraint = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidatorConstraints']>[number];

/** `@IsOptional`, `@ValidateIf`: when one answers false, nothing else is checked on the property. */
type Condition = (object: object, value: unknown) => boolean;
/** One decorator and the constraint objects that check it. */
type Rule = { readonly metadata: Metadata; readonly constraints: readonly Constraint[] };

/** What class-validator checks on one property, from its own metadata storage. */
interface PropertyPlan {
  readonly property: string;
  readonly conditions: readonly Condition[];
  readonly rules: readonly Rule[];
}

/** Per model: its plan, or `null` when it uses what the plan does not cover (then always `validate`). */
const plans = new WeakMap<object, readonly PropertyPlan[] | null>();

/**
 * The checks `validate(instance, OPTIONS)` runs on instances of the model, read once from
 * class-validator's metadata storage through its public API (`getMetadataStorage`), with the
 * list of decorators `validate` itself asks for. `null` when one decorator is nested, a promise
 * or `@IsDefined` validation, validates each element of a collection, or has an asynchronous
 * constraint.
 */
export function planOf(model: new () => object): readonly PropertyPlan[] | null {
  let plan = plans.get(model);
  if (plan === undefined) {
    plan = readPlan(model);
    plans.set(model, plan);
  }
  return plan;
}

function readPlan(model: new () => object): PropertyPlan[] | null {
  const storage = getMetadataStorage();
  const byProperty = new Map<string, { property: string; conditions: Condition[]; rules: Rule[] }>();
  for (const metadata of storage.getTargetValidationMetadatas(model, undefined as unknown as string, false, false)) {
    const property = metadata.propertyName;
    let entry = byProperty.get(property);
    if (!entry) {
      entry = { property, conditions: [], rules: [] };
      byProperty.set(property, entry);
    }
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      entry.conditions.push(metadata.constraints[0]);
      continue;
    }
    const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
    if (metadata.type !== ValidationTypes.CUSTOM_VALIDATION || metadata.each || constraints.some((c) => c.async)) {
      return null;
    }
    entry.rules.push({ metadata, constraints });
  }
  return [...byProperty.values()];
}

/**
 * Whether every constraint class-validator would check passes, each answering exactly `true`
 * synchronously. `false` means "not shown to pass": `validate` then decides and words the errors.
 */
export function passes(plan: readonly PropertyPlan[], instance: object): boolean {
  const targetName = (instance.constructor as { name?: string } | undefined)?.name;
  for (const { property, conditions, rules } of plan) {
    const value = (instance as Record<string, unknown>)[property];
    // As class-validator: every condition is called; one false skips the property.
    let checked = true;
    for (const condition of conditions) checked = condition(instance, value) && checked;
    if (!checked || value === undefined) continue;
    for (const { metadata, constraints } of rules) {
      if (metadata.validateIf && !metadata.validateIf(instance, value)) continue;
      for (const constraint of constraints) {
        const args: ValidationArguments = {
          targetName: targetName as string,
          property: metadata.propertyName,
          object: instance,
          value,
          constraints: metadata.constraints,
        };
        if (constraint.instance.validate(value, args) !== true) return false;
      }
    }
  }
  return true;
}

/**
 * class-validator's verdict on a model instance: the same errors as
 * `validate(instance, { skipUndefinedProperties: true, forbidUnknownValues: false })`, but when
 * every decorator is a plain synchronous one (`@IsString`, `@Length`, `@IsOptional`, `@Min`,
 * custom constraints...) and all of them pass, without `validate`'s per-call bookkeeping: the
 * same constraint objects are called with the same arguments, and anything but a plain `true`
 * falls back to `validate` itself. The decorators are read on a model's first validation.
 *
 * @example
 * ```ts
 * await validationErrors(Object.assign(new Book(), { name: '' })); // [ValidationError { property: 'name', ... }]
 * ```
 */
export async function validationErrors(instance: object): Promise<ClassValidatorError[]> {
  const plan = planOf(instance.constructor as new () => object);
  if (plan && passes(plan, instance)) return [];
  return inLibraryVoice(instance, await validate(instance, OPTIONS));
}

/** The names of class-validator's own constraints (`isLength`, `min`...): its exported name constants. */
const BUILT_IN = new Set(Object.values(classValidator).filter((value) => typeof value === 'string'));

const count = (n: unknown, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
const list = (values: unknown) => (Array.isArray(values) ? values.join(', ') : String(values));

/** Built-in constraints whose default wording reads badly once the field name is left out. */
const WORDING: Readonly<Record<string, (c: readonly unknown[]) => string>> = {
  isLength: ([min, max]) =>
    max === undefined || max === null
      ? `must be at least ${count(min, 'character')} long`
      : !min
        ? `must be at most ${count(max, 'character')} long`
        : min === max
          ? `must be exactly ${count(min, 'character')} long`
          : `must be between ${min} and ${count(max, 'character')} long`,
  minLength: ([min]) => `must be at least ${count(min, 'character')} long`,
  maxLength: ([max]) => `must be at most ${count(max, 'character')} long`,
  isByteLength: ([min, max]) =>
    max === undefined ? `must be at least ${count(min, 'byte')} long` : `must be between ${min} and ${max} bytes long`,
  min: ([min]) => `must be at least ${min}`,
  max: ([max]) => `must be at most ${max}`,
  minDate: ([date]) => `must not be before ${date instanceof Date ? date.toISOString() : date}`,
  maxDate: ([date]) => `must not be after ${date instanceof Date ? date.toISOString() : date}`,
  isInt: () => 'must be an integer',
  isNumber: () => 'must be a number',
  isBoolean: () => 'must be a boolean',
  isEmail: () => 'must be an email address',
  isUrl: () => 'must be a URL',
  isIn: ([values]) => `must be one of: ${list(values)}`,
  isNotIn: ([values]) => `must not be one of: ${list(values)}`,
  isEnum: ([, values]) => `must be one of: ${list(values)}`,
  isDefined: () => 'must not be null or missing',
  matches: ([pattern]) => `must match the pattern ${pattern}`,
  arrayUnique: () => 'must not contain the same value twice',
  isDecimal: () => 'must be a decimal number',
  contains: ([text]) => `must contain "${text}"`,
  notContains: ([text]) => `must not contain "${text}"`,
  isJson: () => 'must be valid JSON',
};

/**
 * A default message in the library's voice: about the field, without naming it (`errors` is
 * keyed by field already): `must be at least 1 character long`, not `name must be longer than or
 * equal to 1 characters`; `each value must ...` for `each: true`. `template` is the constraint's
 * default message before class-validator fills in its `$tokens`.
 */
function voiced(name: string, template: string, args: ValidationArguments, each: boolean): string {
  const wording = BUILT_IN.has(name) ? WORDING[name] : undefined;
  if (wording) return `${each ? 'each value ' : ''}${wording(args.constraints ?? [])}`;
  const text = template
    .replace(/^(each value) in \$property (?:should|must)/, '$1 must')
    .replace(/^\$property should/, 'must')
    .replace(
      /^(each value in )?\$property (must|is|has|does)\b/,
      (_, prefix, verb) => `${prefix ? 'each value ' : ''}${verb}`,
    );
  return fillTokens(text, args);
}

/** What class-validator does to a message's `$constraint1`, `$value`, `$property` and `$target`. */
function fillTokens(text: string, args: ValidationArguments): string {
  let filled = text;
  (args.constraints ?? []).forEach((constraint, index) => {
    filled = filled.replaceAll(`$constraint${index + 1}`, list(constraint));
  });
  if (['string', 'boolean', 'number'].includes(typeof args.value))
    filled = filled.replaceAll('$value', String(args.value));
  return filled.replaceAll('$property', args.property).replaceAll('$target', args.targetName);
}

/** The default message template of a constraint: its `$tokens` unfilled, `$property` kept as a token. */
function templateOf(constraint: Constraint, args: ValidationArguments): string | undefined {
  try {
    const template = constraint.instance.defaultMessage?.({ ...args, property: '$property' });
    return typeof template === 'string' ? template : undefined;
  } catch {
    return undefined; // a custom default message that cannot be worded this way keeps class-validator's
  }
}

/**
 * Rewrites the default messages of `errors` (class-validator's answer for `instance`) in the
 * library's voice; a message the decorator was given (`@Length(1, 5, { message })`) stays as
 * written. Nested errors are followed into the nested values.
 */
export function inLibraryVoice(instance: object, errors: ClassValidatorError[]): ClassValidatorError[] {
  const storage = getMetadataStorage();
  const model = instance.constructor as (new () => object) | undefined;
  const metadatas = model
    ? storage.getTargetValidationMetadatas(model, undefined as unknown as string, false, false)
    : [];
  for (const error of errors) {
    const value = (instance as Record<string, unknown>)[error.property];
    const messages = error.constraints ?? {};
    for (const metadata of metadatas) {
      if (metadata.propertyName !== error.property || metadata.message || !metadata.constraintCls) continue;
      for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
        const type = constraint.name || metadata.type;
        if (!Object.hasOwn(messages, type)) continue;
        const args: ValidationArguments = {
          targetName: model?.name ?? '',
          property: error.property,
          object: instance,
          value,
          constraints: metadata.constraints,
        };
        const template = templateOf(constraint, args);
        if (template !== undefined) messages[type] = voiced(type, template, args, metadata.each === true);
      }
    }
    if (error.children?.length && typeof value === 'object' && value !== null) inLibraryVoice(value, error.children);
  }
  return errors;
}
