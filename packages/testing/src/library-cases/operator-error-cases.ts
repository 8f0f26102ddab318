import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, type HttpClient } from '../http-client.js';
import { createAuthor, createBook, createReview, expectNamedParameters, list } from './library-fixtures.js';

// CONTRACT part 3, "Operators": an unknown operator, one that does not fit the attribute's type,
// and an operand that does not convert are each a 400 problem+json that names them. The library
// declares no boolean attribute, so `gt` on a boolean has no case here.

/** Asserts that each `[path, ...names]` answers 400 with a `detail` holding every name. */
async function refuses(api: HttpClient, cases: readonly (readonly string[])[]): Promise<void> {
  for (const [path, ...names] of cases) {
    const problem = expectProblem(await api.get(path as string), 400);
    for (const name of names) expect(problem.detail, `${path} names ${name}`).toContain(name);
  }
}

/**
 * The group of 400s for unknown or unfitting operators and operands that do not convert: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [operatorErrorCases];
 * ```
 */
export const operatorErrorCases = group(
  'operator errors',
  async (api) => {
    const author = await createAuthor(api, { country: 'UK' });
    const book = await createBook(api, author.id, { year: 1950, price: '10.00' });
    return { author, book, review: await createReview(api, book.id, { rating: 5 }) };
  },
  {
    async 'operator errors: an unknown operator is 400 naming it'(api) {
      await refuses(api, [
        ['/books?filter[year][like]=1', 'like'],
        ['/books?filter[title][regex]=a', 'regex'],
        ['/books?filter[title][EQ]=a', 'EQ'],
        ['/books?filter[title][startsWith]=a', 'startsWith'],
        ['/books?filter[year][between]=1', 'between'],
        ['/books?filter[year][oneOf]=1', 'oneOf'],
        ['/books?filter[year][gte]=1950&filter[year][gtee]=1950', 'gtee'],
        ['/books?filter[author.name][ilike]=x', 'ilike'],
        ['/reviews?filter[rating][neq]=1', 'neq'],
        ['/authors?filter[name][__proto__]=x', '__proto__'],
      ]);
    },

    async 'operator errors: an operator that does not fit the attribute’s type is 400 naming it'(api) {
      await refuses(api, [
        ['/books?filter[year][prefix]=19', 'prefix', 'year'],
        ['/books?filter[year][contains]=9', 'contains', 'year'],
        ['/books?filter[price][prefix]=1', 'prefix', 'price'],
        ['/books?filter[price][contains]=0', 'contains', 'price'],
        ['/books?filter[publishedAt][prefix]=2024', 'prefix', 'publishedAt'],
        ['/books?filter[id][contains]=1', 'contains', 'filter[id]'],
        ['/books?filter[authorId][prefix]=1', 'prefix', 'authorId'],
        ['/reviews?filter[rating][prefix]=5', 'prefix', 'rating'],
        ['/reviews?filter[createdAt][contains]=2024', 'contains', 'createdAt'],
        // null on an attribute that is never null (required, or set by the server).
        ['/books?filter[title][null]=true', 'null', 'title'],
        ['/books?filter[authorId][null]=false', 'null', 'authorId'],
        ['/books?filter[id][null]=true', 'null', 'filter[id]'],
        ['/books?filter[createdAt][null]=true', 'null', 'createdAt'],
        ['/authors?filter[name][null]=true', 'null', 'name'],
        ['/reviews?filter[rating][null]=false', 'null', 'rating'],
        ['/books?filter[author.name][null]=true', 'null', 'name'],
        ['/books?filter[author.createdAt][prefix]=2024', 'prefix', 'createdAt'],
      ]);
    },

    async 'operator errors: an operand that does not convert to the type is 400 naming the attribute'(api) {
      await refuses(api, [
        ['/books?filter[year][gt]=abc', 'year'],
        ['/books?filter[year][gte]=1.5', 'year'],
        ['/books?filter[year][lt]=', 'year'],
        ['/books?filter[year][lte]=1e3', 'year'],
        ['/books?filter[year][ne]=99999999999999999999', 'year'],
        ['/books?filter[price][gt]=10.001', 'price'],
        ['/books?filter[price][lt]=ten', 'price'],
        ['/books?filter[price][gte]=1e1', 'price'],
        ['/books?filter[price][eq]=9.999', 'price'],
        ['/books?filter[publishedAt][gt]=2024-05-01', 'publishedAt'],
        ['/books?filter[publishedAt][lt]=yesterday', 'publishedAt'],
        ['/books?filter[publishedAt][gte]=2024-05-01T12:00:00', 'publishedAt'],
        ['/books?filter[publishedAt][lte]=2024-02-30T00:00:00Z', 'publishedAt'],
        ['/books?filter[publishedAt][ne]=1714564800000', 'publishedAt'],
        ['/books?filter[year][null]=yes', 'year'],
        ['/books?filter[year][null]=', 'year'],
        ['/books?filter[price][null]=TRUE', 'price'],
        ['/books?filter[isbn][null]=1', 'isbn'],
        ['/books?filter[title][prefix]=%00', 'title'],
        ['/reviews?filter[rating][gt]=five', 'rating'],
        ['/reviews?filter[createdAt][gt]=now', 'createdAt'],
        ['/books?filter[author.createdAt][lt]=2024', 'createdAt'],
        ['/books?filter[author.id][gt]=x', '"x"'],
      ]);
    },

    async 'operator errors: an operator on an unknown attribute, or malformed, is 400'(api) {
      await refuses(api, [
        ['/books?filter[pages][gt]=1', 'pages'],
        ['/books?filter[Year][gt]=1', 'Year'],
        ['/reviews?filter[stars][gte]=1', 'stars'],
        ['/books?filter[year][gt][]=1'],
        ['/books?filter[year][][gt]=1'],
        ['/books?filter[year][gt][lt]=1'],
      ]);
    },

    async 'operator errors: a 400 names the parameter exactly as sent'(api) {
      await expectNamedParameters(api, [
        ['/books?filter[nope]=x', 'filter[nope]'],
        ['/books?filter[nope][gt]=1', 'filter[nope][gt]'],
        ['/books?filter[year][like]=1', 'filter[year][like]'],
        ['/books?filter[year][prefix]=1', 'filter[year][prefix]'],
        ['/books?filter[year]=abc', 'filter[year]'],
        ['/books?filter[year][]=1&filter[year][]=x', 'filter[year][]'],
        ['/books?filter[year][null]=maybe', 'filter[year][null]'],
        ['/books?filter%5Bprice%5D%5Bgt%5D=ten', 'filter[price][gt]'],
        ['/reviews?filter[rating][lte]=1.5', 'filter[rating][lte]'],
      ]);
    },

    async 'operator errors: nothing is left half-applied; the same queries with valid operands answer 200'(
      api,
      { book, review },
    ) {
      await refuses(api, [['/books?filter[year][gte]=1950&filter[year][lt]=abc', 'year']]);
      expect(await list(api, '/books?filter[year][gte]=1950&filter[year][lt]=2000')).toEqual([book]);
      expect(await list(api, '/books?filter[price][gt]=9.99&filter[publishedAt][null]=true')).toEqual([book]);
      expect(await list(api, '/books?filter[author.country][prefix]=U')).toEqual([book]);
      expect(await list(api, '/reviews?filter[rating][gte]=5&filter[body][null]=true')).toEqual([review]);
    },
  },
);
