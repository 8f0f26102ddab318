import type { ActionTarget } from '../contract/actions.js';
import { MAX_GROUP_ATTRIBUTES } from '../query/stats-query.js';
import type { CompiledResource } from '../resource/compile.js';
import type { AttributeSchema } from '../schema/types.js';
import { filterParameters, searchParameter } from './query-parameters.js';
import type { DocumentedRelation } from './relations.js';
import type { JsonSchema } from './schemas.js';
import { decimalPattern, typeSchema } from './value-types.js';

/**
 * The path of an action's target: `/<path>` (collection), `/<path>/{id}` (member) or
 * `/<path>/stats` (statistics).
 *
 * @example
 * ```ts
 * targetPath('stats', 'issues'); // '/issues/stats'
 * ```
 */
export function targetPath(target: ActionTarget, path: string): string {
  if (target === 'collection') return `/${path}`;
  return target === 'member' ? `/${path}/{id}` : `/${path}/${target}`;
}

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** A sum as answered: a decimal's text with its scale (no bound on its digits), an integer's number (or text past 2^53). */
function sumSchema(attribute: AttributeSchema): JsonSchema {
  if (attribute.type === 'decimal') {
    const scale = attribute.scale ?? 0;
    return {
      type: 'string',
      pattern: decimalPattern(scale, scale + 40, true),
      description: 'Exact, with the places of the attribute',
    };
  }
  return {
    anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[1-9][0-9]{15,}$' }],
    description: 'A number; its exact decimal text beyond 2^53',
  };
}

function aggregates(
  names: ReadonlySet<string>,
  compiled: CompiledResource,
  schemaOf: (a: AttributeSchema) => JsonSchema,
) {
  const properties: Record<string, JsonSchema> = {};
  for (const name of names) properties[name] = nullable(schemaOf(compiled.attributes.get(name) as AttributeSchema));
  return { type: 'object', properties, additionalProperties: false };
}

/** A comma-separated list of the names a statistics parameter takes. */
function listParameter(name: string, names: ReadonlySet<string>, description: string, most = names.size): JsonSchema {
  const one = `(?:${[...names].join('|')})`;
  return {
    name,
    in: 'query',
    description: `${description} Allowed: ${[...names].map((n) => `\`${n}\``).join(', ')}. Naming another attribute (or one hidden from the caller) is 400.`,
    schema: { type: 'string', pattern: `^${one}(?:,${one}){0,${Math.max(0, most - 1)}}$` },
  };
}

/**
 * The operation of `GET /<path>/stats`: the index's filters and `q` (and `archived`, added with
 * the access description), `group`, `sum`, `min`, `max`, and an answer typed by the attributes
 * (a listed attribute's values as an `enum`).
 */
export function statsOperation(
  compiled: CompiledResource,
  relations: readonly DocumentedRelation[],
  operationId: string,
  problems: Record<string, unknown>,
): Record<string, unknown> & { responses: Record<string, unknown> } {
  const { plural } = compiled.resource;
  const rules = compiled.stats as NonNullable<CompiledResource['stats']>;
  const parameters = filterParameters(compiled, relations);
  // `q` narrows statistics as it narrows the index (the server takes it on both).
  const search = searchParameter(compiled, 'stats');
  if (search) parameters.push(search);
  if (rules.group.size > 0) {
    parameters.push(
      listParameter(
        'group',
        rules.group,
        `Up to ${MAX_GROUP_ATTRIBUTES} attributes whose values make the groups.`,
        MAX_GROUP_ATTRIBUTES,
      ),
    );
  }
  if (rules.sum.size > 0) parameters.push(listParameter('sum', rules.sum, 'Attributes to sum (exactly).'));
  if (rules.min.size > 0) parameters.push(listParameter('min', rules.min, 'Attributes whose least value to answer.'));
  if (rules.max.size > 0)
    parameters.push(listParameter('max', rules.max, 'Attributes whose greatest value to answer.'));
  // A group's value, a least or a greatest value is a record's value: one of the listed ones, if listed.
  const output = (a: AttributeSchema) => ({ ...typeSchema(a, 'output'), ...(a.values ? { enum: [...a.values] } : {}) });
  const properties: Record<string, JsonSchema> = {};
  for (const name of rules.group) properties[name] = nullable(output(compiled.attributes.get(name) as AttributeSchema));
  properties.count = { type: 'integer', minimum: 0 };
  if (rules.sum.size > 0) properties.sum = aggregates(rules.sum, compiled, sumSchema);
  if (rules.min.size > 0) properties.min = aggregates(rules.min, compiled, output);
  if (rules.max.size > 0) properties.max = aggregates(rules.max, compiled, output);
  const entry = { type: 'object', required: ['count'], properties, additionalProperties: false };
  return {
    operationId,
    tags: [plural],
    summary: `Statistics of ${plural}`,
    description: `Counts (and sums, minima, maxima) of the ${plural} the index's filters keep, grouped by up to ${MAX_GROUP_ATTRIBUTES} attributes: one entry per combination of values that occurs, in ascending order of those values (null first), at most ${compiled.limits.groups} (400 naming \`group\` beyond). Without \`group\`, one entry for all. \`sort\`, \`page\`, \`per_page\`, \`include\`, \`fields\`, \`after\` and \`count\` are 400.`,
    parameters,
    responses: {
      success: {
        description: `The groups of ${plural}`,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['stats'],
              properties: { stats: { type: 'array', items: entry } },
              additionalProperties: false,
            },
          },
        },
      },
      ...problems,
    },
  };
}
