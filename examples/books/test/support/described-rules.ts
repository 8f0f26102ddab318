// Rules the document states in words (in its descriptions) rather than in schemas, as the
// OpenAPI checker applies them.

// biome-ignore lint/suspicious/noExplicitAny: schemas are walked as plain JSON
type Json = any;

/** The 405 of a method a path does not serve, as the document's descriptions state it. */
export const METHOD_NOT_ALLOWED = {
  headers: { Allow: { required: true, schema: { type: 'string' } } },
  content: {
    'application/problem+json': {
      schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { status: { const: 405 } } }] },
    },
  },
};

/** The query parameters an index reads (and refuses when wrong), and those a show reads. */
const INDEX_READS = /^(filter|(sort|page|per_page|count|after|fields|include)$)/;
const SHOW_READS = /^(fields|include)$/;

/**
 * The names of query parameters the server reads on an operation (an index: the one with
 * `per_page`; a show: any other GET), so that one the document does not list is refused.
 */
export function readNames(query: { name: string }[], method: string): RegExp | undefined {
  if (query.some((parameter) => parameter.name === 'per_page')) return INDEX_READS;
  return method === 'GET' ? SHOW_READS : undefined;
}

/** What the parameters' descriptions forbid: `filter[a]` with `filter[a][]`, a key sorted twice. */
export function wordedRules(pairs: [string, string][]): string[] {
  const problems: string[] = [];
  const names = new Set(pairs.map(([key]) => key));
  for (const name of names) {
    if (names.has(`${name}[]`)) problems.push(`${name} and ${name}[] are given together`);
  }
  const sort = pairs
    .find(([key]) => key === 'sort')?.[1]
    .split(',')
    .map((key) => key.replace(/^-/, ''));
  if (sort && new Set(sort).size !== sort.length) problems.push('sort names an attribute twice');
  return problems;
}

const narrowed = new WeakMap<object, Json>();

/**
 * `schema` with each of its own `anyOf` (not those behind a `$ref`) taken at its first schema: a
 * show or index answered without `fields` holds whole records, as its description says.
 */
export function firstBranches(schema: Json): Json {
  let found = narrowed.get(schema);
  if (!found) {
    const walk = (node: Json): Json => {
      if (Array.isArray(node)) return node.map(walk);
      if (!node || typeof node !== 'object') return node;
      if (Array.isArray(node.anyOf)) return walk(node.anyOf[0]);
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    };
    found = walk(schema);
    narrowed.set(schema, found);
  }
  return found;
}
