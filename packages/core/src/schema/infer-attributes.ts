import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { AttributeSchema, AttributeType } from './types.js';

/** Decorator names (class-validator's metadata `name`) that fix an attribute's type. */
const TYPE_OF_DECORATOR: Record<string, AttributeType> = {
  isInt: 'integer',
  isNumber: 'number',
  isBoolean: 'boolean',
  isString: 'string',
  isEmail: 'string',
  isUrl: 'string',
  isUuid: 'string',
  isIso8601: 'string',
  isDateString: 'string',
  isAlpha: 'string',
  isAlphanumeric: 'string',
  isHexColor: 'string',
  isNotEmpty: 'string',
  matches: 'string',
  isLength: 'string',
  minLength: 'string',
  maxLength: 'string',
};

const DESIGN_TYPES = new Map<unknown, AttributeType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/** A model class: the class whose fields carry class-validator decorators. */
export type ModelClass<M = object> = new () => M;

/**
 * Reads a model class's attributes from its class-validator decorators: the type from the
 * first type-giving decorator (`@IsString`, `@IsInt`, ..., or the values of `@IsIn`/`@IsEnum`), nullability from `@IsOptional`,
 * the maximum length from `@Length`/`@MaxLength`. `types` overrides or completes the inference.
 * `id` is always an integer assigned by the store, declared or not.
 *
 * @example
 * ```ts
 * inferAttributes(Book);
 * // [{ name: 'id', type: 'integer', nullable: false }, { name: 'name', type: 'string', nullable: false, maxLength: 500 }, ...]
 * ```
 */
export function inferAttributes(
  model: ModelClass,
  types: Readonly<Record<string, AttributeType>> = {},
): AttributeSchema[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(model, '', true, false);
  const byProperty = new Map<string, typeof metadata>();
  for (const entry of metadata) {
    const list = byProperty.get(entry.propertyName) ?? [];
    list.push(entry);
    byProperty.set(entry.propertyName, list);
  }
  for (const name of Object.keys(types)) if (!byProperty.has(name)) byProperty.set(name, []);

  const attributes: AttributeSchema[] = [{ name: 'id', type: 'integer', nullable: false }];
  for (const [name, entries] of byProperty) {
    if (name === 'id') continue;
    const nullable = entries.some((entry) => entry.type === ValidationTypes.CONDITIONAL_VALIDATION);
    let type = types[name];
    let maxLength: number | undefined;
    for (const entry of entries) {
      type ??= entry.name ? (TYPE_OF_DECORATOR[entry.name] ?? typeOfChoices(entry.name, entry.constraints)) : undefined;
      if (entry.name === 'isLength' && typeof entry.constraints[1] === 'number') maxLength = entry.constraints[1];
      if (entry.name === 'maxLength' && typeof entry.constraints[0] === 'number') maxLength = entry.constraints[0];
    }
    type ??= designType(model, name);
    if (!type) {
      throw new TypeError(
        `Cannot tell the type of ${model.name}.${name}: decorate it with @IsString(), @IsInt(), @IsNumber() or @IsBoolean(), or set it in the resource's \`types\` option`,
      );
    }
    attributes.push(maxLength === undefined ? { name, type, nullable } : { name, type, nullable, maxLength });
  }
  return attributes;
}

/** The type shared by every value of `@IsIn([...])` or `@IsEnum(E)`, if there is one. */
function typeOfChoices(name: string, constraints: unknown[] | undefined): AttributeType | undefined {
  const source = constraints?.[0];
  let values: unknown[];
  if (name === 'isIn' && Array.isArray(source)) values = source;
  else if (name === 'isEnum' && source && typeof source === 'object') {
    // A numeric TypeScript enum maps names to numbers and numbers back to names: keep the values.
    const entries = Object.entries(source);
    values = entries.filter(([key]) => !/^\d+$/.test(key)).map(([, value]) => value);
  } else return undefined;
  if (values.length === 0) return undefined;
  if (values.every((value) => typeof value === 'string')) return 'string';
  if (values.every((value) => Number.isSafeInteger(value))) return 'integer';
  if (values.every((value) => typeof value === 'number' && Number.isFinite(value))) return 'number';
  if (values.every((value) => typeof value === 'boolean')) return 'boolean';
  return undefined;
}

function designType(model: ModelClass, property: string): AttributeType | undefined {
  const reflect = Reflect as unknown as { getMetadata?: (key: string, target: object, property: string) => unknown };
  return DESIGN_TYPES.get(reflect.getMetadata?.('design:type', model.prototype, property));
}
