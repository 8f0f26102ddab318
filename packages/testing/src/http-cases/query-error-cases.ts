import { expect } from 'vitest';
import { expectProblem, type HttpClient } from '../http-client.js';
import { group } from './group.js';

/** Asserts that each query string is answered 400, then that the index still works. */
async function rejects(api: HttpClient, queries: readonly string[]): Promise<void> {
  for (const query of queries) {
    const problem = expectProblem(await api.get(`/books?${query}`), 400);
    expect(problem.status, query).toBe(400);
  }
  expect(await api.count()).toBe(2);
}

const SEED = [
  { name: 'Dune', author: 'Frank Herbert' },
  { name: 'Emma', author: 'Jane Austen' },
];

/** Every malformed or disallowed index query is a 400 problem. */
export const queryErrorCases = group('index: 400 for bad queries', (api) => api.createAll(SEED), {
  'unknown attribute in filter is 400': (api) =>
    rejects(api, ['filter[year]=1999', 'filter[year][]=1999', 'filter[Name]=Dune', 'filter[name]=Dune&filter[x]=1']),

  'unknown attribute in sort is 400': (api) => rejects(api, ['sort=year', 'sort=-year', 'sort=name,year', 'sort=Name']),

  'a filter value that does not convert to the attribute type is 400': (api) =>
    rejects(api, [
      'filter[id]=abc',
      'filter[id]=1.5',
      'filter[id]=1e3',
      'filter[id]=',
      'filter[id][]=1&filter[id][]=x',
      'filter[id]=99999999999999999999',
      // No store can hold NUL (PostgreSQL refuses it), so no filter may ask for it.
      'filter[name]=%00',
      'filter[name][]=Dune&filter[name][]=a%00b',
      // Invalid UTF-8 in a percent-encoding.
      'filter[name]=%ED%A0%80',
    ]),

  'filter=x is 400': (api) => rejects(api, ['filter=x', 'filter', 'filter[]=x', 'filter[=x']),

  'filter[a][b][c]=x is 400': (api) =>
    rejects(api, ['filter[a][b][c]=x', 'filter[name][a][b]=x', 'filter[name][x]=Dune', 'filter[name][][]=Dune']),

  'sort=- is 400': (api) => rejects(api, ['sort=-', 'sort=--name', 'sort=name,-']),

  'sort=a,,b is 400': (api) => rejects(api, ['sort=a,,b', 'sort=name,,author', 'sort=name,', 'sort=,name']),

  'sort=a;b is 400': (api) => rejects(api, ['sort=a;b', 'sort=name;author', 'sort=name%3Bauthor', 'sort=name+author']),

  'page that is not a positive integer is 400': (api) =>
    rejects(api, ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=1e3', 'page=']),

  'per_page that is not a positive integer is 400': (api) =>
    rejects(api, ['per_page=0', 'per_page=-1', 'per_page=abc', 'per_page=1.5', 'per_page=']),

  'per_page above the maximum of 100 is 400': (api) => rejects(api, ['per_page=101', 'per_page=1000000']),

  'attributes named __proto__, constructor or prototype are 400': (api) =>
    rejects(
      api,
      ['__proto__', 'constructor', 'prototype'].flatMap((name) => [
        `filter[${name}]=x`,
        `filter[${name}][]=x`,
        `filter%5B${name}%5D=x`,
        `sort=${name}`,
        `sort=-${name}`,
        `sort=name,${name}`,
      ]),
    ),
});
