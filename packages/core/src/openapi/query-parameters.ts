import type { Operator } from '../contract/operators.js';
import type { CompiledResource } from '../resource/compile.js';
import { compiledResource } from '../resource/define-resource.js';
import type { AttributeSchema } from '../schema/types.js';
import { SEARCH_WORD_MAX, SEARCH_WORDS_MAX } from '../store/search-words.js';
import type { DocumentedRelation } from './relations.js';
import { filterValueSchema, type JsonSchema } from './schemas.js';

// The query parameters of CONTRACT part 3 (operators, filters through a belongs-to, `fields`,
// cursors), each declared by its literal name: `filter[year][gte]` is one parameter with its own
// schema. OpenAPI's `deepObject` style leaves nested objects undefined and cannot say
// `filter[a][]`, so tools would disagree on it; literal names say exactly what the parser takes.

/** What each operator keeps. */
const MEANING: Record<Exclude<Operator, 'null'>, string> = {
  eq: 'equals this value',
  ne: 'differs from this value',
  gt: 'is greater than this value',
  gte: 'is at least this value',
  lt: 'is less than this value',
  lte: 'is at most this value',
  prefix: 'starts with this text (literal, case-sensitive)',
  contains: 'contains this text (literal, case-sensitive: `%` and `_` match themselves)',
};

const RANGES: ReadonlySet<Operator> = new Set(['gt', 'gte', 'lt', 'lte']);

/** The attribute a filter names: `year`, or `author.country` through a belongs-to relation. */
interface Filtered {
  readonly key: string;
  /** Said after the equals parameter's description: that the field is hidden, or what the relation is. */
  readonly note: string;
  readonly attribute: AttributeSchema;
  readonly operators: readonly Operator[];
}

/** The values an attribute holds, when it lists them: any other value of a filter matches nothing. */
function listed(attribute: AttributeSchema): string {
  if (!attribute.values) return '';
  return ` Its values: ${attribute.values.map((value) => `\`${value}\``).join(', ')} (any other matches nothing).`;
}

/** The `filter[...]` parameters of one attribute: equals and any of (with `eq`), and one per operator it takes. */
function attributeFilters(filtered: Filtered, plural: string, filterValues: number): JsonSchema[] {
  const { key: name, attribute } = filtered;
  const said = `\`${name}\``;
  const value = filterValueSchema(attribute);
  // The value's description is said once, on `filter[a]`; each operator repeats only its rules.
  const { description: _, ...bare } = value;
  const key = `filter[${name}]`;
  const ordered = attribute.type === 'string' ? ' (by code point)' : '';
  // `filter[a]` and `filter[a][]` are equality: only where `eq` is allowed.
  const parameters: JsonSchema[] = [];
  if (filtered.operators.includes('eq')) {
    parameters.push(
      {
        name: key,
        in: 'query',
        description: `Keeps the ${plural} whose ${said} equals this value (strings compare exactly). Filters combine with AND.${listed(attribute)}${filtered.note}`,
        schema: value,
      },
      {
        name: `${key}[]`,
        in: 'query',
        description: `Keeps the ${plural} whose ${said} is any of these values: repeat the parameter, \`${key}[]=a&${key}[]=b\`. Not together with \`${key}\`. At most ${filterValues} filter values in all.`,
        style: 'form',
        explode: true,
        schema: { type: 'array', items: value, minItems: 1, maxItems: filterValues },
      },
    );
  }
  for (const op of filtered.operators) {
    parameters.push(
      op === 'null'
        ? {
            name: `${key}[null]`,
            in: 'query',
            description: `\`true\` keeps the ${plural} whose ${said} is \`null\`, \`false\` those with a value. The other operators never match \`null\`.`,
            schema: { type: 'boolean' },
          }
        : {
            name: `${key}[${op}]`,
            in: 'query',
            description: `Keeps the ${plural} whose ${said} ${MEANING[op]}${RANGES.has(op) ? ordered : ''}.`,
            schema: bare,
          },
    );
  }
  return parameters;
}

/**
 * The `filter[...]` parameters of an index: for each filterable attribute `filter[a]`,
 * `filter[a][]` and `filter[a][op]` for each operator it takes; then the same for the filterable
 * attributes of each belongs-to relation's target, `filter[author.country]...`.
 *
 * @example
 * ```ts
 * filterParameters(compiledResource(books), relations.get(books) ?? []).map((parameter) => parameter.name);
 * // ['filter[id]', 'filter[id][]', 'filter[id][eq]', ..., 'filter[author.country][null]']
 * ```
 */
export function filterParameters(compiled: CompiledResource, relations: readonly DocumentedRelation[]): JsonSchema[] {
  const { filterValues } = compiled.limits;
  const { plural } = compiled.resource;
  const parameters: JsonSchema[] = [];
  const add = (owner: CompiledResource, through?: DocumentedRelation) => {
    const { filterable, operators } = owner.query;
    for (const field of filterable) {
      const filtered: Filtered = {
        key: through ? `${through.name}.${field}` : field,
        note: through
          ? through.kind === 'manyToMany'
            ? ` Keeps the ${plural} with at least one of \`${through.name}\` (the ${through.target.plural} whose ids \`${through.foreignKey}\` holds) matching.`
            : ` \`${through.name}\` is the ${through.target.name} whose id \`${through.foreignKey}\` holds.`
          : owner.shown.includes(field)
            ? ''
            : ` \`${field}\` is not shown in responses.`,
        attribute: owner.attributes.get(field) as AttributeSchema,
        operators: operators.get(field) ?? [],
      };
      parameters.push(...attributeFilters(filtered, plural, filterValues));
    }
  };
  add(compiled);
  for (const relation of relations) {
    if (relation.kind !== 'hasMany') add(compiledResource(relation.target), relation);
  }
  return parameters;
}

/**
 * The `fields` parameter of show and index: the attributes to answer, with `id`, comma-separated,
 * each at most once (repeated, its lists make one). Without it every record is whole.
 *
 * @example
 * ```ts
 * fieldsParameter(compiledResource(books)).schema.items.enum; // ['id', 'title', 'authorId', 'year', ...]
 * ```
 */
export function fieldsParameter(compiled: CompiledResource): JsonSchema | undefined {
  const names = [...compiled.query.fields];
  if (names.length === 0) return undefined;
  const others = names.filter((name) => name !== 'id');
  const example = (others.length > 0 ? others : names).slice(0, 2).join(',');
  return {
    name: 'fields',
    in: 'query',
    description: `The fields to answer, comma-separated, each at most once: \`${example}\`; the parameter may also be repeated (\`fields=a&fields=b\`, as clients that explode arrays send it), its names then one list. Each ${compiled.resource.name} then holds \`id\` and those fields only (the second schema of the response's \`anyOf\`); relations asked for with \`include\` are still added whole. Without \`fields\`, every record is whole (the first schema). An unknown field is 400.`,
    style: 'form',
    explode: false,
    schema: {
      type: 'array',
      items: { type: 'string', enum: names },
      minItems: 1,
      maxItems: Math.min(names.length, compiled.limits.filterValues),
      uniqueItems: true,
    },
  };
}

/**
 * The `q` parameter of an index (or of its statistics, or its live events) on a resource that declares `search`, else `undefined`.
 *
 * @example
 * ```ts
 * searchParameter(compiledResource(issues), 'stats')?.name; // 'q'
 * ```
 */
export function searchParameter(
  compiled: CompiledResource,
  action: 'index' | 'stats' | 'events' = 'index',
): JsonSchema | undefined {
  const fields = compiled.query.search;
  if (!fields) return undefined;
  const { plural } = compiled.resource;
  const names = fields.map((field) => `\`${field}\``).join(fields.length === 2 ? ' or ' : ', ');
  return {
    name: 'q',
    in: 'query',
    description: `Search: keeps the ${plural} where every word of \`q\` begins a word of ${names} (different words may match in different fields). Words are runs of Unicode letters and digits (\`_\` and punctuation separate them); case is ignored (Unicode case folding), accents are not. ${{ index: 'Combines with the filters, `sort` and pages.', stats: 'Combines with the filters: the statistics count what the index would list.', events: 'Combines with the filters: the stream sends the changes of what the index would list.' }[action]} A \`q\` without a word, with more than ${SEARCH_WORDS_MAX} words or a word longer than ${SEARCH_WORD_MAX} characters is 400. A field hidden from the caller is left out of their search.`,
    schema: { type: 'string', minLength: 1, examples: ['login crash'] },
  };
}

/**
 * The pagination parameters of an index: `page` and `per_page`, or with cursor pagination
 * `after` and `per_page`; then `count`.
 *
 * @example
 * ```ts
 * paginationParameters(compiledResource(reviews)).map((parameter) => parameter.name); // ['after', 'per_page', 'count']
 * ```
 */
export function paginationParameters(compiled: CompiledResource): JsonSchema[] {
  const { plural } = compiled.resource;
  const { perPage, count, pagination, estimateAbove } = compiled.query;
  const cursor = pagination === 'cursor';
  const first: JsonSchema = cursor
    ? {
        name: 'after',
        in: 'query',
        description: `Where the page starts: copy it from the \`next\` link, which keeps the other parameters; it is opaque. Leave it out for the first page. A cursor the server did not make for these filters and this sort is 400. \`page\` is refused here (400).`,
        schema: { type: 'string', minLength: 1 },
      }
    : {
        name: 'page',
        in: 'query',
        description: 'Page number, from 1. A page past the end is an empty list.',
        schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
      };
  return [
    first,
    {
      name: 'per_page',
      in: 'query',
      description: `Records per page, at most ${perPage.max}.`,
      schema: { type: 'integer', minimum: 1, maximum: perPage.max, default: perPage.default },
    },
    {
      name: 'count',
      in: 'query',
      description: `Whether to count the matching ${plural} (\`X-Total-Count\`${cursor ? '' : ' and the `last` link'}); counting costs a query on big tables. \`estimated\`: exact up to ${estimateAbove} matches, past them an estimate if the store makes one, as \`X-Total-Count-Estimate\` instead (no \`last\` link).`,
      schema: { oneOf: [{ type: 'boolean' }, { type: 'string', const: 'estimated' }], default: cursor ? false : count },
    },
  ];
}

/**
 * A record as `fields=` answers it: `id` and any of the other fields of `output` (each as there),
 * and the relations `withRelated` adds, if any.
 *
 * @example
 * ```ts
 * sparseRecord(compiledResource(books), built.output, related); // { type: 'object', required: ['id'], properties: { ... } }
 * ```
 */
export function sparseRecord(compiled: CompiledResource, output: JsonSchema, withRelated?: JsonSchema): JsonSchema {
  const { name } = compiled.resource;
  const added = (withRelated?.allOf as JsonSchema[] | undefined)?.[1]?.properties as JsonSchema | undefined;
  return {
    description: `A ${name} as \`fields\` answers it: \`id\` and the fields named${added ? ', with the relations `include` names' : ''}.`,
    type: 'object',
    required: ['id'],
    properties: structuredClone({ ...(output.properties as JsonSchema), ...added }),
    ...(output.additionalProperties === false ? { additionalProperties: false } : {}),
  };
}
