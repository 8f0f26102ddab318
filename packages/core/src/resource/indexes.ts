import type { AttributeSchema, IndexKey } from '../schema/types.js';

/**
 * The longest string, in characters, that an index holds whole: at up to 4 bytes a character
 * (UTF-8) plus the id, an entry fits the index of every SQL store (PostgreSQL keeps at most 2,704
 * bytes an entry, InnoDB 3,072). Longer strings are not indexed unless a resource says so, and
 * then cannot be: a valid value must never be refused by an index.
 */
export const INDEXED_STRING_LENGTH = 500;

/**
 * The most characters a string attribute may hold (`Infinity` without `maxLength`, unless its
 * values are listed: then the longest of them), 0 for other types.
 */
function stringLength(attribute: AttributeSchema): number {
  if (attribute.type !== 'string') return 0;
  if (attribute.values) return Math.max(0, ...attribute.values.map((value) => String(value).length));
  return attribute.maxLength ?? Number.POSITIVE_INFINITY;
}

/**
 * Whether an attribute gets an index `(field, id)` when it is filtered or sorted on: every
 * fixed-size type, and strings of at most {@link INDEXED_STRING_LENGTH} characters (a string
 * whose values are listed, `@IsIn`, is as long as its longest value); not long text, not JSON
 * (which is never compared).
 */
export function isIndexable(attribute: AttributeSchema | undefined): boolean {
  return attribute !== undefined && attribute.type !== 'json' && stringLength(attribute) <= INDEXED_STRING_LENGTH;
}

/**
 * The `indexes` option checked against the attributes: each index a non-empty list of attribute
 * names, `-` before a name meaning descending (`[['authorId', '-year', 'id']]`), no attribute
 * twice, no JSON, no index twice, and at most {@link INDEXED_STRING_LENGTH} characters of strings
 * in one index.
 *
 * @throws TypeError naming the mistake.
 */
export function declaredIndexes(
  resource: string,
  declared: unknown,
  attributes: ReadonlyMap<string, AttributeSchema>,
): IndexKey[][] {
  if (declared === undefined) return [];
  const fail = (message: string): never => {
    throw new TypeError(`defineResource(${resource}): indexes ${message}`);
  };
  const example = "a list of indexes, each a list of field names ('-' for descending): [['authorId', '-year', 'id']]";
  if (!Array.isArray(declared)) fail(`must be ${example}`);
  const seen = new Set<string>();
  return (declared as unknown[]).map((entry) => {
    if (!Array.isArray(entry) || entry.length === 0 || !entry.every((name) => typeof name === 'string')) {
      return fail(`must be ${example} (got ${JSON.stringify(entry)})`);
    }
    const keys = (entry as string[]).map((name): IndexKey => {
      const field = name.startsWith('-') ? name.slice(1) : name;
      const attribute = attributes.get(field);
      if (!attribute) fail(`names "${field}", which is not a field`);
      if (attribute?.type === 'json') fail(`names "${field}", which holds JSON and cannot be indexed`);
      return { field, direction: name.startsWith('-') ? 'desc' : 'asc' };
    });
    const fields = keys.map((key) => key.field);
    const twice = fields.find((field, at) => fields.indexOf(field) !== at);
    if (twice) fail(`lists "${twice}" twice in [${entry.join(', ')}]`);
    const characters = fields.reduce((sum, field) => sum + stringLength(attributes.get(field) as AttributeSchema), 0);
    if (characters > INDEXED_STRING_LENGTH) {
      fail(
        `[${entry.join(', ')}]: its strings hold up to ${characters} characters together, more than an index ` +
          `holds whole (${INDEXED_STRING_LENGTH}): declare a smaller maxLength or leave the long string out`,
      );
    }
    const text = entry.join(',');
    if (seen.has(text)) fail(`declares [${entry.join(', ')}] twice`);
    seen.add(text);
    return keys;
  });
}
