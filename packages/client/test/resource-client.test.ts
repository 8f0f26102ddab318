import { defineResource } from '@resourcery/core';
import { describe, expect, it } from 'vitest';
import { pluralize } from '../src/plural.js';
import { resourceClient } from '../src/resource-client.js';
import { ResourceError } from '../src/resource-error.js';
import type { ResourceType } from '../src/types.js';

// Answers the client can meet but the example server never gives (a proxy's HTML error page, a
// foreign body), with a fake `fetch` that records what was sent. The real exchanges are tested
// against the running example app in examples/books/test/client.test.ts.

type People = ResourceType<{ name: string }, 'person', 'people'>;

function fakeFetch(answer: (url: string, init: RequestInit) => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer(url, init);
  };
  return { calls, fetch };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });

describe('resourceClient', () => {
  it('builds URLs from the base, the path or plural, and reads the declared keys', async () => {
    const { calls, fetch } = fakeFetch((url) =>
      url.includes('?') ? json({ people: [{ id: 1, name: 'Ada' }] }) : json({ person: { id: 1, name: 'Ada' } }),
    );
    const people = resourceClient<People>({ baseUrl: '/api/', name: 'person', plural: 'people', fetch });
    expect(people.url).toBe('/api/people');
    expect(await people.show(1)).toEqual({ id: 1, name: 'Ada' });
    expect((await people.index({ page: 1 })).records).toEqual([{ id: 1, name: 'Ada' }]);
    const staff = resourceClient<People>({ baseUrl: '/api', name: 'person', plural: 'people', path: 'staff', fetch });
    await staff.create({ name: 'Grace' });
    expect(calls.map((call) => `${call.init.method} ${call.url}`)).toEqual([
      'GET /api/people/1',
      'GET /api/people?page=1',
      'POST /api/staff',
    ]);
  });

  it('sends JSON with the shared headers (a function is called per request) and the call headers', async () => {
    let token = 0;
    const { calls, fetch } = fakeFetch(() => json({ person: { id: 1, name: 'Ada' } }));
    const people = resourceClient<People>({
      baseUrl: 'http://api.test',
      name: 'person',
      plural: 'people',
      fetch,
      headers: () => ({ authorization: `Bearer ${++token}`, 'x-app': 'test' }),
    });
    await people.update(1, { name: 'Ada' }, { headers: { 'x-app': 'override' } });
    await people.show(1);
    const [update, show] = calls.map((call) => new Headers(call.init.headers));
    expect(update?.get('authorization')).toBe('Bearer 1');
    expect(update?.get('x-app')).toBe('override');
    expect(update?.get('content-type')).toBe('application/json');
    expect(calls[0]?.init.body).toBe('{"name":"Ada"}');
    expect(show?.get('authorization')).toBe('Bearer 2');
    expect(show?.get('content-type')).toBeNull();
    expect(show?.get('accept')).toBe('application/json, application/problem+json');
  });

  it('reads X-Total-Count as an exact total, X-Total-Count-Estimate as an estimated one', async () => {
    const answers: Record<string, string>[] = [
      { 'x-total-count': '42', link: '</api/people?page=2>; rel="next", </api/people?page=9>; rel="last"' },
      { 'x-total-count-estimate': '1234567', link: '</api/people?page=2>; rel="next"' },
      {},
    ];
    let headers: Record<string, string> = {};
    const { calls, fetch } = fakeFetch(() => json({ people: [] }, { headers }));
    const people = resourceClient<People>({ baseUrl: '/api', name: 'person', plural: 'people', fetch });
    const results = [];
    for (const answer of answers) {
      headers = answer;
      const { total, estimated, next, last } = await people.index({ count: 'estimated' });
      results.push({ total, estimated, next, last });
    }
    expect(results).toEqual([
      { total: 42, estimated: false, next: 2, last: 9 },
      { total: 1234567, estimated: true, next: 2, last: undefined },
      { total: undefined, estimated: false, next: undefined, last: undefined },
    ]);
    expect(calls.map((call) => call.url)).toEqual(Array(3).fill('/api/people?count=estimated'));
  });

  it('turns an answer that is not a problem into an unexpected_response error', async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'content-type': 'text/html' },
        }),
    );
    const people = resourceClient<People>({ baseUrl: '/api', name: 'person', plural: 'people', fetch });
    const error = await people.show(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceError);
    expect(error).toMatchObject({ status: 502, title: 'Bad Gateway', code: 'unexpected_response', errors: {} });
    expect((error as ResourceError).detail).toBe('<html>Bad gateway</html>');
  });

  it('says so when a success lacks the expected member', async () => {
    const { fetch } = fakeFetch(() => json({ data: [] }));
    const people = resourceClient<People>({ baseUrl: '/api', name: 'person', plural: 'people', fetch });
    await expect(people.index()).rejects.toMatchObject({
      code: 'unexpected_response',
      detail: 'The response body has no "people" member',
    });
  });

  it('keeps the problem as sent, extension members included', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'Taken',
      code: 'conflict',
      owner: 7,
    };
    const { fetch } = fakeFetch(() =>
      json(problem, { status: 409, headers: { 'content-type': 'application/problem+json' } }),
    );
    const people = resourceClient<People>({ baseUrl: '/api', name: 'person', plural: 'people', fetch });
    const error = (await people.destroy(1).catch((caught: unknown) => caught)) as ResourceError;
    expect(error.problem).toEqual(problem);
    expect(error.message).toBe('409 Conflict: Taken');
  });
});

it('pluralizes as the server does', () => {
  const words = ['book', 'category', 'day', 'box', 'church', 'bus', 'quiz', 'dish', 'Key', 'CITY'];
  class Model {}
  const serverPlural = (name: string) => defineResource({ name, model: Model }).plural;
  expect(words.map(pluralize)).toEqual(words.map(serverPlural));
  expect(pluralize('category')).toBe('categories');
});
