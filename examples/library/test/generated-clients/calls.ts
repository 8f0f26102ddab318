// One call of each kind of query parameter, made by openapi-fetch (typed by openapi-typescript)
// and by Orval's fetch client, both generated from the library example's /api/openapi.json.
// generated-clients.test.ts generates `schema.ts` and `orval.ts` next to a copy of this file,
// typechecks the three with tsc and runs `callEveryKind` against the example's server. The
// repository's tsconfig leaves this folder out: what it imports exists only in that copy.
import createClient from 'openapi-fetch';
import type { Answer, Answers, Seeded } from './answers.js';
import * as orval from './orval.js';
import type { paths } from './schema.js';

/** openapi-fetch's answer: `data` or `error` and the response. */
async function fromOpenapiFetch(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<Answer> {
  const { data, error, response } = await call;
  const { headers, status } = response;
  return { status, body: data ?? error, total: headers.get('x-total-count'), link: headers.get('link') };
}

/** Orval's answer: `data`, `status` and `headers`. */
async function fromOrval(call: Promise<{ data: unknown; status: number; headers: Headers }>): Promise<Answer> {
  const { data, status, headers } = await call;
  return { status, body: data, total: headers.get('x-total-count'), link: headers.get('link') };
}

/** The `after` of a `Link` header's `next` target. */
function nextCursor(link: string | null): string {
  const next = /<([^>]*)>; rel="next"/.exec(link ?? '')?.[1];
  const after = next && new URL(next, 'http://x').searchParams.get('after');
  if (!after) throw new Error(`no next cursor in ${link}`);
  return after;
}

/** Makes every kind of call with both clients against the API at `baseUrl` (Orval's is built in). */
export async function callEveryKind(baseUrl: string, { earthsea, dune }: Seeded): Promise<Answers> {
  const api = createClient<paths>({ baseUrl });
  const books = (query: paths['/books']['get']['parameters']['query']) =>
    fromOpenapiFetch(api.GET('/books', { params: { query } }));
  const book = (id: number, query: paths['/books/{id}']['get']['parameters']['query']) =>
    fromOpenapiFetch(api.GET('/books/{id}', { params: { path: { id }, query } }));
  const reviews = (query: paths['/reviews']['get']['parameters']['query']) =>
    fromOpenapiFetch(api.GET('/reviews', { params: { query } }));
  const pair = async (openapiFetch: Promise<Answer>, orvalAnswer: Promise<Answer>) => ({
    openapiFetch: await openapiFetch,
    orval: await orvalAnswer,
  });

  const answers: Answers = {
    'filter eq': await pair(
      books({ 'filter[title]': 'Dune' }),
      fromOrval(orval.indexBooks({ 'filter[title]': 'Dune' })),
    ),
    'filter any-of': await pair(
      books({ 'filter[id][]': [earthsea, dune], sort: 'id' }),
      fromOrval(orval.indexBooks({ 'filter[id][]': [earthsea, dune], sort: 'id' })),
    ),
    'filter operators': await pair(
      books({ 'filter[year][gte]': 1960, 'filter[year][lt]': 1970, sort: 'year' }),
      fromOrval(orval.indexBooks({ 'filter[year][gte]': 1960, 'filter[year][lt]': 1970, sort: 'year' })),
    ),
    'relation filter': await pair(
      books({ 'filter[author.name][prefix]': 'Ursula', 'filter[author.country]': 'US', sort: 'id' }),
      fromOrval(
        orval.indexBooks({ 'filter[author.name][prefix]': 'Ursula', 'filter[author.country]': 'US', sort: 'id' }),
      ),
    ),
    sort: await pair(books({ sort: '-year,id' }), fromOrval(orval.indexBooks({ sort: '-year,id' }))),
    'page and per_page': await pair(
      books({ sort: 'id', page: 2, per_page: 2 }),
      fromOrval(orval.indexBooks({ sort: 'id', page: 2, per_page: 2 })),
    ),
    count: await pair(books({ count: false, sort: 'id' }), fromOrval(orval.indexBooks({ count: false, sort: 'id' }))),
    'include (index)': await pair(
      books({ include: ['author', 'reviews'], sort: 'id' }),
      fromOrval(orval.indexBooks({ include: ['author', 'reviews'], sort: 'id' })),
    ),
    'include (show)': await pair(
      book(earthsea, { include: ['author', 'reviews'] }),
      fromOrval(orval.showBook(earthsea, { include: ['author', 'reviews'] })),
    ),
    'fields (index)': await pair(
      books({ fields: ['title', 'year'], sort: 'id' }),
      fromOrval(orval.indexBooks({ fields: ['title', 'year'], sort: 'id' })),
    ),
    'fields and include (show)': await pair(
      book(dune, { fields: ['title', 'year'], include: ['author'] }),
      fromOrval(orval.showBook(dune, { fields: ['title', 'year'], include: ['author'] })),
    ),
  };
  // Cursor pagination: the first page of reviews, then the one its `next` link's `after` names.
  const first = await pair(reviews({ per_page: 2 }), fromOrval(orval.indexReviews({ per_page: 2 })));
  answers.after = await pair(
    reviews({ per_page: 2, after: nextCursor(first.openapiFetch.link) }),
    fromOrval(orval.indexReviews({ per_page: 2, after: nextCursor(first.orval.link) })),
  );
  return answers;
}
