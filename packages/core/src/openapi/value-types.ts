import { MAX_PRECISION } from '../schema/convert.js';
import type { AttributeSchema } from '../schema/types.js';
import type { JsonSchema } from './schemas.js';

/**
 * Where a value travels: in a response (`output`, the canonical form), in a request body
 * (`input`, what the server accepts and converts), or in a filter of the query string.
 */
export type Direction = 'output' | 'input' | 'filter';

/** A date-time as the server answers it: UTC with milliseconds. */
const CANONICAL_DATE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';
/** A uuid as the server answers it: lowercase. */
const CANONICAL_UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * The pattern of a decimal with `scale` places and `precision` digits in all: `canonical`, the
 * form the server answers (no leading zeros, exactly `scale` places); otherwise the text it
 * accepts (leading zeros, at most `scale` places that are not trailing zeros).
 */
export function decimalPattern(scale: number, precision: number, canonical: boolean): string {
  const digits = precision - scale;
  if (canonical) {
    const whole = digits === 0 ? '0' : `(?:0|[1-9][0-9]{0,${digits - 1}})`;
    return `^-?${whole}${scale > 0 ? `\\.[0-9]{${scale}}` : ''}$`;
  }
  const whole = digits === 0 ? '0+' : `0*[0-9]{1,${digits}}`;
  const fraction = scale === 0 ? '(?:\\.0+)?' : `(?:\\.[0-9]{1,${scale}}0*)?`;
  return `^-?${whole}${fraction}$`;
}

function decimalSchema(attribute: AttributeSchema, direction: Direction): JsonSchema {
  const scale = attribute.scale ?? 0;
  const precision = attribute.precision ?? MAX_PRECISION;
  const size = `at most ${precision - scale} digits before the point`;
  if (direction === 'output') {
    return {
      type: 'string',
      pattern: decimalPattern(scale, precision, true),
      description: `A decimal as a string with exactly ${scale} places (${size}), exact in every store`,
    };
  }
  const places = `at most ${scale} places (more is refused, never rounded) and ${size}`;
  return direction === 'input'
    ? {
        type: ['string', 'number'],
        pattern: decimalPattern(scale, precision, false),
        description: `A decimal, as a string or a JSON number, with ${places}; answered as a string with exactly ${scale} places`,
      }
    : { type: 'string', pattern: decimalPattern(scale, precision, false), description: `A decimal with ${places}` };
}

/**
 * The JSON Schema of an attribute's type, before its decorators refine it: `date-time`, `date`
 * and `uuid` are formatted strings (answered in their canonical forms), `decimal` a string (a
 * string or a number on input), `json` an object.
 *
 * @example
 * ```ts
 * typeSchema({ name: 'publishedAt', type: 'date-time', nullable: true }, 'input');
 * // { type: 'string', format: 'date-time', description: 'An RFC 3339 date-time, ...' }
 * ```
 */
export function typeSchema(attribute: AttributeSchema, direction: Direction): JsonSchema {
  const output = direction === 'output';
  switch (attribute.type) {
    case 'date-time':
      return output
        ? { type: 'string', format: 'date-time', pattern: CANONICAL_DATE_TIME, description: 'In UTC with milliseconds' }
        : {
            type: 'string',
            format: 'date-time',
            description: 'An RFC 3339 date-time, with any offset; answered in UTC with milliseconds',
          };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'uuid':
      return output ? { type: 'string', format: 'uuid', pattern: CANONICAL_UUID } : { type: 'string', format: 'uuid' };
    case 'decimal':
      return decimalSchema(attribute, direction);
    case 'json':
      return { type: 'object', description: 'A JSON object' };
    default:
      return { type: attribute.type };
  }
}

/**
 * The `id` of a record: an integer the store assigns, or a lowercase uuid the server assigns.
 *
 * @example
 * ```ts
 * idSchema({ name: 'id', type: 'integer', nullable: false }); // { type: 'integer', minimum: 1, ... }
 * ```
 */
export function idSchema(attribute: AttributeSchema | undefined): JsonSchema {
  return attribute?.type === 'uuid'
    ? { ...typeSchema(attribute, 'output'), readOnly: true, description: 'Assigned by the server (a lowercase uuid)' }
    : {
        type: 'integer',
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        readOnly: true,
        description: 'Assigned by the server',
      };
}
