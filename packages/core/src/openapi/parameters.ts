import type { CompiledResource } from '../resource/compile.js';
import { fieldsParameter, filterParameters, paginationParameters, searchParameter } from './query-parameters.js';
import type { DocumentedRelation } from './relations.js';
import type { JsonSchema } from './schemas.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `id` path parameter of the member operations. */
export function idParameter(compiled: CompiledResource): JsonSchema {
  const { name } = compiled.resource;
  if (compiled.attributes.get('id')?.type === 'uuid') {
    return {
      name: 'id',
      in: 'path',
      required: true,
      description: `The ${name}'s id, a uuid (in any case). Anything else answers 404.`,
      schema: { type: 'string', format: 'uuid' },
    };
  }
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `The ${name}'s id. Anything but a positive integer in plain decimal answers 404.`,
    schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  };
}

/**
 * The `include` parameter of show and index, for a resource with relations: a comma-separated
 * list of relation names, each at most once; repeated, its lists make one.
 *
 * @example
 * ```ts
 * includeParameter(compiledResource(books), relations.get(books) ?? []);
 * // { name: 'include', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { enum: ['author', 'reviews'] } } }
 * ```
 */
export function includeParameter(compiled: CompiledResource, relations: readonly DocumentedRelation[]): JsonSchema {
  const names = relations.map((relation) => relation.name);
  const each = relations.map((relation) =>
    relation.kind === 'belongsTo'
      ? `\`${relation.name}\` (the ${relation.target.name} or \`null\`)`
      : relation.kind === 'manyToMany'
        ? `\`${relation.name}\` (the ${relation.target.plural} whose ids \`${relation.foreignKey}\` holds, ordered by id)`
        : `\`${relation.name}\` (${relation.target.plural} ordered by id, at most ${relation.limit})`,
  );
  const example = names.slice(0, 2).join(',');
  return {
    name: 'include',
    in: 'query',
    description: `Relations to add to each ${compiled.resource.name}, comma-separated, each at most once: \`${example}\`. The parameter may also be repeated (\`${names
      .slice(0, 2)
      .map((name) => `include=${name}`)
      .join(
        '&',
      )}\`, as clients that explode arrays send it): the names are one list. Relations: ${each.join(', ')}. An unknown relation, or one named twice, is 400.`,
    style: 'form',
    explode: false,
    schema: {
      type: 'array',
      items: { type: 'string', enum: names },
      minItems: 1,
      maxItems: Math.min(names.length, compiled.limits.sortKeys),
      uniqueItems: true,
    },
  };
}

/** `If-None-Match` of show: a revalidating client sends the ETag it holds. */
export const ifNoneMatchParameter: JsonSchema = {
  name: 'If-None-Match',
  in: 'header',
  description: 'ETags of copies the client holds; when one is current the answer is 304 without a body.',
  schema: { type: 'string' },
};

/** `If-Match` of show, update and destroy: optimistic concurrency. */
export const ifMatchParameter: JsonSchema = {
  name: 'If-Match',
  in: 'header',
  description:
    'The ETag of the copy the client read: the request goes on only if the record still has it, else 412 (nothing is changed). `*` matches any record; a weak tag (`W/"..."`) never matches.',
  schema: { type: 'string' },
};

/** `If-Match` of index and create: the collection has no entity tag, so only `*` passes. */
export const collectionIfMatch: JsonSchema = {
  name: 'If-Match',
  in: 'header',
  description: 'The collection has no entity tag: `*` passes, any listed tag answers 412.',
  schema: { type: 'string' },
};

/**
 * The `sort` pattern: 1 to `maxKeys` keys, each a sortable name with an optional `-`, none
 * listed twice (the lookahead refuses `name,name` and `id,-id`, as the server does).
 */
export function sortPattern(names: readonly string[], maxKeys: number): string {
  const alternatives = names.map(escapeRegExp).join('|');
  const key = `-?(?:${alternatives})`;
  const repeated = `(?!(?:[^,]*,)*-?(${alternatives}),(?:[^,]*,)*-?\\1(?:,|$))`;
  return `^${repeated}${key}(?:,${key}){0,${maxKeys - 1}}$`;
}

/**
 * Every query parameter of the index, each declared by its literal name. OpenAPI's `deepObject`
 * style cannot describe `filter[a][]`, so each filterable attribute gets its own parameters:
 * `filter[a]` (equals), `filter[a][]` (any of, repeated) and `filter[a][op]` per operator, and
 * so do a belongs-to relation's (`filter[author.country]`). `sort` is a string whose pattern
 * admits only the sortable attributes; `q` (with `search`), `fields`, `include`, then `page` (or `after`),
 * `per_page` and `count`.
 *
 * @example
 * ```ts
 * indexParameters(compiledResource(books)).map((parameter) => parameter.name);
 * // ['filter[id]', 'filter[id][]', 'filter[id][eq]', ..., 'sort', 'fields', 'page', 'per_page', 'count']
 * ```
 */
export function indexParameters(
  compiled: CompiledResource,
  relations: readonly DocumentedRelation[] = [],
): JsonSchema[] {
  const { sortable, defaultSort } = compiled.query;
  const { sortKeys } = compiled.limits;
  const parameters: JsonSchema[] = filterParameters(compiled, relations);

  const shown = new Set(compiled.shown);
  const hidden = (field: string) => (shown.has(field) ? '' : ` \`${field}\` is not shown in responses.`);
  if (sortable.size > 0) {
    const names = [...sortable];
    const fallback = (defaultSort ?? []).map((entry) => `${entry.descending ? '-' : ''}${entry.attribute}`).join(',');
    const other = names.find((name) => name !== 'id');
    const example = other ? `${other},-id` : '-id';
    parameters.push({
      name: 'sort',
      in: 'query',
      description: `Up to ${sortKeys} attributes to sort by, comma-separated, each at most once; a leading \`-\` sorts descending: \`${example}\`. Sortable: ${names.map((name) => `\`${name}\``).join(', ')}. Default \`${fallback || 'id'}\`. Ties are broken by \`id\` ascending unless \`id\` is a sort key.${names.map(hidden).join('')}`,
      schema: { type: 'string', pattern: sortPattern(names, sortKeys), examples: [example] },
    });
  }

  const search = searchParameter(compiled);
  if (search) parameters.push(search);
  const fields = fieldsParameter(compiled);
  if (fields) parameters.push(fields);
  if (relations.length > 0) parameters.push(includeParameter(compiled, relations));
  parameters.push(...paginationParameters(compiled));
  return parameters;
}
