import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { MAX_PRECISION } from './convert.js';
import type { AttributeSchema, AttributeType, Scalar } from './types.js';

/**
 * An attribute type that decorators cannot say: a type, and for a decimal its places and,
 * optionally, its digits in all (default and maximum 15).
 */
export type TypeDeclaration =
  | AttributeType
  | { readonly type: AttributeType; readonly scale?: number; readonly precision?: number };

/** Decorator names (class-validator's metadata `name`) that fix an attribute's type. */
const TYPE_OF_DECORATOR: Record<string, AttributeType> = {
  isInt: 'integer',
  isNumber: 'number',
  isBoolean: 'boolean',
  isString: 'string',
  isEmail: 'string',
  isUrl: 'string',
  isUuid: 'uuid',
  isIso8601: 'date-time',
  isDateString: 'date-time',
  isRFC3339: 'date-time',
  isDecimal: 'decimal',
  isObject: 'json',
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
 * first type-giving decorator (`@IsString`, `@IsInt`, `@IsISO8601`/`@IsDateString` (date-time),
 * `@IsDecimal({ decimal_digits: '0,2' })` (decimal, 2 places), `@IsUUID`, `@IsObject` (json),
 * ..., or the values of `@IsIn`/`@IsEnum`), nullability from `@IsOptional`, the maximum length
 * from `@Length`/`@MaxLength`, the only values allowed (`values`) from `@IsIn`/`@IsEnum`. `types`
 * overrides or completes the inference (`date` is only declared there). `id` is an integer assigned by the store, or a uuid when the model declares
 * `@IsUUID() id` or `idType` says so.
 *
 * @example
 * ```ts
 * inferAttributes(Book);
 * // [{ name: 'id', type: 'integer', nullable: false }, { name: 'name', type: 'string', nullable: false, maxLength: 500 }, ...]
 * ```
 */
export function inferAttributes(
  model: ModelClass,
  types: Readonly<Record<string, TypeDeclaration>> = {},
  idType?: 'integer' | 'uuid',
): AttributeSchema[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(model, '', true, false);
  const byProperty = new Map<string, typeof metadata>();
  for (const entry of metadata) {
    const list = byProperty.get(entry.propertyName) ?? [];
    list.push(entry);
    byProperty.set(entry.propertyName, list);
  }
  for (const name of Object.keys(types)) if (!byProperty.has(name)) byProperty.set(name, []);

  const declaredId = byProperty.get('id')?.some((entry) => entry.name === 'isUuid') ? 'uuid' : undefined;
  const attributes: AttributeSchema[] = [{ name: 'id', type: idType ?? declaredId ?? 'integer', nullable: false }];
  for (const [name, entries] of byProperty) {
    if (name === 'id') continue;
    const nullable = entries.some((entry) => entry.type === ValidationTypes.CONDITIONAL_VALIDATION);
    const declared = types[name];
    let type = typeof declared === 'object' ? declared.type : declared;
    let scale = typeof declared === 'object' ? declared.scale : undefined;
    const precision = (typeof declared === 'object' ? declared.precision : undefined) ?? MAX_PRECISION;
    let maxLength: number | undefined;
    let values: readonly Scalar[] | undefined;
    for (const entry of entries) {
      const listed = entry.name ? choicesOf(entry.name, entry.constraints) : undefined;
      values ??= listed;
      type ??= entry.name ? (TYPE_OF_DECORATOR[entry.name] ?? typeOfChoices(listed)) : undefined;
      if (entry.name === 'isLength' && typeof entry.constraints[1] === 'number') maxLength = entry.constraints[1];
      if (entry.name === 'maxLength' && typeof entry.constraints[0] === 'number') maxLength = entry.constraints[0];
      if (entry.name === 'isDecimal') scale ??= decimalPlaces(entry.constraints?.[0]);
    }
    type ??= designType(model, name);
    if (!type) {
      throw new TypeError(
        `Cannot tell the type of ${model.name}.${name}: decorate it with @IsString(), @IsInt(), @IsNumber() or @IsBoolean(), or set it in the resource's \`types\` option`,
      );
    }
    const attribute: { -readonly [K in keyof AttributeSchema]: AttributeSchema[K] } = { name, type, nullable };
    if (maxLength !== undefined) attribute.maxLength = maxLength;
    if (values && fitsType(values, type)) attribute.values = values;
    if (type === 'decimal') Object.assign(attribute, decimalSize(model, name, scale, precision));
    attributes.push(attribute);
  }
  return attributes;
}

/** The most places `@IsDecimal({ decimal_digits: '0,2' })` allows (`'2'` and `'1,2'` too). */
function decimalPlaces(options: unknown): number | undefined {
  const digits = (options as { decimal_digits?: unknown } | undefined)?.decimal_digits;
  const most = typeof digits === 'string' ? /^(?:\d+,)?(\d+)$/.exec(digits.trim())?.[1] : undefined;
  return most === undefined ? undefined : Number(most);
}

function decimalSize(model: ModelClass, name: string, scale: number | undefined, precision: number) {
  if (scale === undefined) {
    throw new TypeError(
      `${model.name}.${name} is a decimal without declared places: use @IsDecimal({ decimal_digits: '0,2' }) or the resource's \`types: { ${name}: { type: 'decimal', scale: 2 } }\``,
    );
  }
  if (
    !(
      Number.isInteger(scale) &&
      Number.isInteger(precision) &&
      scale >= 0 &&
      precision <= MAX_PRECISION &&
      scale <= precision &&
      precision >= 1
    )
  ) {
    throw new TypeError(
      `${model.name}.${name}: a decimal needs 0 <= places <= digits <= ${MAX_PRECISION} (got ${scale} and ${precision})`,
    );
  }
  return { scale, precision };
}

/** The values of `@IsIn([...])` or `@IsEnum(E)`, each once, in the declared order (none for another decorator). */
function choicesOf(name: string, constraints: unknown[] | undefined): readonly Scalar[] | undefined {
  const source = constraints?.[0];
  let values: unknown[];
  if (name === 'isIn' && Array.isArray(source)) values = source;
  else if (name === 'isEnum' && source && typeof source === 'object') {
    // A numeric TypeScript enum maps names to numbers and numbers back to names: keep the values.
    const entries = Object.entries(source);
    values = entries.filter(([key]) => !/^\d+$/.test(key)).map(([, value]) => value);
  } else return undefined;
  return [...new Set(values)] as Scalar[];
}

/** Whether every listed value is a value of the type (a CHECK can list it): strings, integers, numbers, booleans. */
function fitsType(values: readonly Scalar[], type: AttributeType): boolean {
  const found = typeOfChoices(values);
  return found === type || (found === 'integer' && type === 'number');
}

/** The type shared by every value of `@IsIn([...])` or `@IsEnum(E)`, if there is one. */
function typeOfChoices(values: readonly unknown[] | undefined): AttributeType | undefined {
  if (!values || values.length === 0) return undefined;
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
