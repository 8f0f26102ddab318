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
  return validate(instance, OPTIONS);
}
