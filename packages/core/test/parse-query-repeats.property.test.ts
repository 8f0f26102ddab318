import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/contract/limits.js';
import { HttpError } from '../src/errors/http-error.js';
import { parseIndexQuery, parseMemberQuery } from '../src/query/parse-query.js';

// The repeated-key rule: `include` and `fields` may be repeated (clients that explode arrays send
// `include=a&include=b`) and are then one list, in order; a name given twice is a 400, and so is
// any other parameter given twice (`sort`, `page`, `per_page`, `count`, `after`, `filter[a]`,
// `filter[a][op]`), whose meaning twice would be ambiguous. Names come from a small alphabet, so
// that repeats across parameters are frequent.

const NAMES = ['a', 'b', 'c', 'title', 'author', 'reviews'];
const ONCE = {
  sort: fc.constantFrom('title', '-year,id'),
  page: fc.constantFrom('1', '2'),
  per_page: fc.constantFrom('10', '25'),
  count: fc.constantFrom('true', 'false'),
  after: fc.constantFrom('abc', 'xyz'),
  'filter[title]': fc.constantFrom('Dune', 'x'),
  'filter[year][gte]': fc.constantFrom('1950', '2000'),
} as const;
type OnceKey = keyof typeof ONCE;

const listParameter = fc.record({
  key: fc.constantFrom('include' as const, 'fields' as const),
  names: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  /** Whether the comma is percent-encoded (`%2C`), as URLSearchParams writes it. */
  encoded: fc.boolean(),
});
const onceParameter = fc
  .constantFrom(...(Object.keys(ONCE) as OnceKey[]))
  .chain((key) => ONCE[key].map((value) => ({ key, value })));
const parameter = fc.oneof(
  { weight: 3, arbitrary: listParameter },
  { weight: 1, arbitrary: onceParameter },
  { weight: 1, arbitrary: fc.constant({ key: '_', value: 'noise' }) },
);

type Parameter = { key: 'include' | 'fields'; names: string[]; encoded: boolean } | { key: string; value: string };
const write = (p: Parameter) =>
  'names' in p ? `${p.key}=${p.names.join(p.encoded ? '%2C' : ',')}` : `${p.key}=${p.value}`;

/** What the rule says of `include` or `fields`: its list, `undefined` when absent, or `refused`. */
function expectedList(parameters: Parameter[], key: 'include' | 'fields'): string[] | undefined | 'refused' {
  const given = parameters.filter((p): p is Extract<Parameter, { names: string[] }> => p.key === key && 'names' in p);
  if (given.length === 0) return undefined;
  const names = given.flatMap((p) => p.names);
  const most = key === 'fields' ? DEFAULT_LIMITS.filterValues : DEFAULT_LIMITS.sortKeys;
  if (new Set(names).size < names.length || names.length > most) return 'refused';
  return names;
}

function outcome<T>(parse: () => T): T | 'refused' {
  try {
    return parse();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return 'refused';
  }
}

describe('the repeated-key rule of the query parser', () => {
  it('reads repeated include and fields as one list in order, and refuses a name twice or another parameter twice', () => {
    fc.assert(
      fc.property(fc.array(parameter, { maxLength: 8 }), (parameters) => {
        const rawQuery = parameters.map(write).join('&');
        const include = expectedList(parameters, 'include');
        const fields = expectedList(parameters, 'fields');
        const onceKeys = parameters.filter((p) => p.key in ONCE).map((p) => p.key);
        const repeatedOnce = new Set(onceKeys).size < onceKeys.length;

        const index = outcome(() => parseIndexQuery(rawQuery));
        if (include === 'refused' || fields === 'refused' || repeatedOnce) expect(index).toBe('refused');
        else {
          expect(index).not.toBe('refused');
          expect(index).toMatchObject({ include, fields });
        }
        // A show reads only include and fields: other repeats are not its business.
        const member = outcome(() => parseMemberQuery(rawQuery));
        if (include === 'refused' || fields === 'refused') expect(member).toBe('refused');
        else expect(member).toEqual({ ...(include && { include }), ...(fields && { fields }) });
      }),
      { numRuns: 2000 },
    );
  });

  it('names the parameter and the name given twice', () => {
    expect(() => parseIndexQuery('include=author&include=reviews,author')).toThrow(
      'include names the relation "author" more than once',
    );
    expect(() => parseMemberQuery('fields=title&fields=year&fields=title')).toThrow(
      'fields names the attribute "title" more than once',
    );
    expect(parseIndexQuery('include=author&fields=title&include=reviews&fields=year,price')).toMatchObject({
      include: ['author', 'reviews'],
      fields: ['title', 'year', 'price'],
    });
  });
});
