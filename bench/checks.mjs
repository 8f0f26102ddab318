// Correctness before speed: the same requests go to every contender, in the same order, and
// their answers must match the baseline's (status, key headers, body). A contender that
// answers differently is not doing the same work, so the run stops before timing anything.
import { isDeepStrictEqual } from 'node:util';
import { contractOwnAnswer } from './contenders/by-hand/dialect.mjs';
import { AUTHORS, FILTER_AUTHOR, makeBooks } from './data.mjs';
import { baselineOf, NOCOUNT, takesPart } from './scenarios.mjs';

/** Headers whose values must match; others (Date, Content-Length, Connection...) may differ. */
const KEY_HEADERS = ['content-type', 'x-total-count', 'link', 'location', 'allow'];

const json = (body, type = 'application/json') => ({ headers: { 'content-type': type }, body: JSON.stringify(body) });
const raw = (body, type) => ({ headers: type ? { 'content-type': type } : {}, body });
const get = (path) => ({ method: 'GET', path });

/** One request of each timed scenario, tagged with it (judged among its contenders, must succeed). */
const timed = (scenarios, path = (same) => same) =>
  scenarios.map((scenario) => {
    const request = scenario.request();
    return { ...request, path: path(request.path), scenario: scenario.name, timed: true };
  });

/**
 * The checked requests over `books` seeded records. Writes come in an order that leaves the
 * seeded ids 1..books in place, so the timed scenarios find every id they ask for. Requests
 * tagged with a `scenario` are judged among that scenario's contenders against its baseline;
 * with the `count=false` scenario come a few more lists without a count.
 */
export function checkRequests({ books, scenarios }) {
  const n = books;
  const a = encodeURIComponent(AUTHORS[3]);
  const b = encodeURIComponent(AUTHORS[58]);
  const someName = encodeURIComponent(makeBooks(Math.min(n, 10))[4].name);
  const lastPage = Math.max(1, Math.ceil(n / 25));
  const valid = { name: 'Kindred', author: 'Octavia Butler' };
  return [
    // show
    get('/api/books/1'),
    get(`/api/books/${n}`),
    get(`/api/books/${n + 1}`),
    get('/api/books/abc'),
    get('/api/books/0'),
    get('/api/books/1e3'),
    // index
    get('/api/books'),
    get('/api/books?page=3&per_page=25'),
    get(`/api/books?page=${lastPage}&per_page=25`),
    get('/api/books?page=99999'),
    get(`/api/books?filter[author]=${encodeURIComponent(FILTER_AUTHOR)}&sort=-name&page=1&per_page=20`),
    get(`/api/books?filter[author][]=${a}&filter[author][]=${b}&sort=author,-name&page=2&per_page=7`),
    get('/api/books?filter[id]=7'),
    get('/api/books?filter[id][]=7&filter[id][]=9&sort=name'),
    get(`/api/books?filter[name]=${someName}&sort=-id`),
    get('/api/books?sort=name,-id&per_page=3&foo=bar&page=2'),
    get('/api/books?filter%5Bauthor%5D=Ann+Banks&per_page=2'),
    ...(scenarios.some(({ name }) => name === NOCOUNT)
      ? [
          get('/api/books?count=false'),
          get(`/api/books?page=${lastPage}&per_page=25&count=false`),
          get(`/api/books?page=${lastPage - 1}&per_page=25&count=false`),
          get('/api/books?page=99999&count=false'),
          get(`/api/books?filter[author][]=${a}&filter[author][]=${b}&sort=author,-name&page=2&per_page=7&count=false`),
          get('/api/books?count=maybe'),
          get('/api/books?count=false&count=false'),
        ].map((request) => ({ ...request, scenario: NOCOUNT }))
      : []),
    // index: refused queries
    get('/api/books?filter[nope]=1'),
    get('/api/books?filter[id]=x'),
    get('/api/books?per_page=101'),
    get('/api/books?page=0'),
    get('/api/books?sort=-'),
    get('/api/books?sort=name,,id'),
    get('/api/books?sort=name&sort=id'),
    get('/api/books?sort=name,name'),
    get('/api/books?filter=x'),
    get('/api/books?filter[a][b][c]=x'),
    get('/api/books?filter[__proto__]=1'),
    // create
    { method: 'POST', path: '/api/books', ...json(valid) },
    { method: 'POST', path: '/api/books', ...json({ book: valid }) },
    { method: 'POST', path: '/api/books', ...json(valid, 'application/vnd.api+json') },
    { method: 'POST', path: '/api/books', ...json({ name: 'Kindred' }) },
    { method: 'POST', path: '/api/books', ...json({ ...valid, id: 5 }) },
    { method: 'POST', path: '/api/books', ...json({ name: '', author: 'x'.repeat(501) }) },
    { method: 'POST', path: '/api/books', ...json({ name: 5, author: null }) },
    { method: 'POST', path: '/api/books', ...json({ ...valid, year: 1979 }) },
    { method: 'POST', path: '/api/books', ...raw('{"__proto__":{"x":1},"name":"a","author":"b"}', 'application/json') },
    { method: 'POST', path: '/api/books', ...raw('name=Kindred', 'text/plain') },
    { method: 'POST', path: '/api/books', ...raw(new TextEncoder().encode('{}')) },
    { method: 'POST', path: '/api/books', ...raw('{"name":', 'application/json') },
    { method: 'POST', path: '/api/books', ...raw('[1, 2]', 'application/json') },
    // update
    { method: 'PATCH', path: '/api/books/5', ...json({ name: 'Parable of the Sower' }) },
    { method: 'PATCH', path: '/api/books/6', ...json({}) },
    { method: 'PATCH', path: '/api/books/7', ...json({ book: { author: 'Ann Leckie' } }) },
    { method: 'PATCH', path: `/api/books/${n + 1000}`, ...json({ name: 'x' }) },
    { method: 'PATCH', path: '/api/books/abc', ...json({ name: 'x' }) },
    { method: 'PATCH', path: '/api/books/8', ...json({ author: null }) },
    { method: 'PATCH', path: '/api/books/8', ...json({ id: 3, name: '' }) },
    { method: 'PATCH', path: '/api/books/8', ...raw('name=x', 'text/plain') },
    // destroy (a created record, so that the seeded ids stay)
    { method: 'DELETE', path: `/api/books/${n + 1}` },
    { method: 'DELETE', path: `/api/books/${n + 1}` },
    get(`/api/books/${n + 1}`),
    // methods and paths
    { method: 'PUT', path: '/api/books/1', ...json(valid) },
    { method: 'DELETE', path: '/api/books' },
    { method: 'POST', path: '/api/books/1', ...json(valid) },
    { method: 'OPTIONS', path: '/api/books' },
    { method: 'OPTIONS', path: '/api/books/1' },
    get('/api/nothing'),
    get('/api/books/1/extra'),
    // one request of each timed scenario, then the state the writes left
    ...timed(scenarios),
    get('/api/books?per_page=100'),
    get(`/api/books/${n + 2}`),
  ];
}

/**
 * The requests every contender answers, including those whose API has another shape (their
 * `dialect` translates them): one of each timed scenario over fixed ids, and the reads that show
 * what the writes did. Compared after reduction to `{ status, body, total }` (same records in the
 * same order, same total), since headers and error shapes differ between the APIs.
 */
export function commonRequests({ books, scenarios }) {
  return [
    ...timed(scenarios, (path) => path.replace(/^\/api\/books\/\d+$/, '/api/books/5')),
    get('/api/books/5'),
    get(`/api/books/${books + 1}`),
    get('/api/books?per_page=100'),
  ];
}

/**
 * What a contender answered, reduced to what must match. `detail` and the messages of a 422's
 * `errors` are prose (the library words class-validator's messages its own way), so they may
 * differ: the fields `errors` names, and how many messages each, must not.
 */
export async function answer(port, request) {
  const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  const headers = {};
  for (const name of KEY_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = name === 'link' ? decodedTargets(value) : value;
  }
  const text = await response.text();
  let body = text;
  if (/json/.test(headers['content-type'] ?? '')) {
    body = JSON.parse(text);
    if (headers['content-type'].startsWith('application/problem+json')) {
      delete body.detail;
      const count = (messages) => (Array.isArray(messages) ? messages.length : 1);
      if (body.errors) body.errors = Object.fromEntries(Object.entries(body.errors).map(([f, m]) => [f, count(m)]));
    }
  }
  return { status: response.status, headers, body };
}

/**
 * A Link header with its targets decoded (`+` and percent-encodings): the library encodes every
 * query character a link may not hold raw (`,` as `%2C`, a space as `%20`), hand-written servers
 * copy the query as sent (`+`); both name the same URLs.
 */
function decodedTargets(link) {
  return link.replace(/<([^>]*)>/g, (_, target) => {
    try {
      return `<${decodeURIComponent(target.replace(/\+/g, ' '))}>`;
    } catch {
      return `<${target}>`;
    }
  });
}

function show(value) {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}

/**
 * Sends the checks to the servers (`[{ name, port, dialect?, scenarios? }]`) and compares each
 * answer with the baseline's: first {@link commonRequests} to every server (translated by its
 * `dialect` and reduced to records, order and total), then {@link checkRequests}, the whole
 * contract, to the servers that speak it (no `dialect`). Every server gets every request, so that
 * their data stay alike, but a request of a scenario is judged among the contenders of that
 * scenario against its baseline (scenarios.mjs), and any other among the contenders timed in
 * every scenario against the run's baseline. Answers the number of answers judged; throws with
 * the first differences. Without a baseline, only the timed scenarios' requests are checked
 * (they must succeed).
 */
export async function verify(servers, baselineName, { books, scenarios }) {
  const names = servers.map((server) => server.name);
  const scenarioNamed = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
  const judging = ({ scenario: name }) => {
    const scenario = scenarioNamed.get(name);
    if (!scenario) return { reference: baselineName, judged: (server) => !server.scenarios };
    const reference = baselineOf(scenario, names, baselineName);
    return { reference, judged: (server) => takesPart(server, scenario, names, baselineName) };
  };
  const problems = [];
  let judgedAnswers = 0;
  const compare = async (requests, taking, reduce) => {
    for (const request of requests) {
      const { reference, judged } = judging(request);
      const answers = [];
      for (const server of taking) {
        const sent = server.dialect ? server.dialect.translate(request) : request;
        const raw = await answer(server.port, sent);
        if (judged(server)) answers.push({ server, raw, got: reduce(server, request, raw) });
      }
      judgedAnswers += answers.length;
      const label = `${request.method} ${request.path}`;
      for (const { server, raw } of answers) {
        if (request.timed && (raw.status < 200 || raw.status > 299)) {
          problems.push(
            `${server.name}: scenario ${request.scenario} (${label}) answered ${raw.status}: ${show(raw.body)}`,
          );
        }
      }
      const expected = answers.find(({ server }) => server.name === reference)?.got;
      if (!expected) continue;
      for (const { server, got } of answers) {
        if (server.name === reference || isDeepStrictEqual(got, expected)) continue;
        problems.push(
          `${label}\n  ${reference}: ${show(expected)}\n  ${server.name}: ${show(got)}`.replace(/\n/g, '\n    '),
        );
      }
    }
  };
  // First every contender, on what they all do, reduced to the records and totals...
  await compare(commonRequests({ books, scenarios }), servers, (server, request, got) =>
    server.dialect ? server.dialect.normalize(request, got) : contractOwnAnswer(request, got),
  );
  // ...then everything the contract says, among the contenders that speak it.
  const speaking = servers.filter((server) => !server.dialect);
  await compare(checkRequests({ books, scenarios }), speaking, (_server, _request, got) => got);
  if (problems.length > 0) {
    const listed = problems.slice(0, 5).join('\n  ');
    throw new Error(`The contenders do not answer alike (${problems.length} differences):\n  ${listed}`);
  }
  return judgedAnswers;
}
