// The timed scenarios, in the order they run: reads first, then writes. Update rewrites titles
// and create grows the collection, so they come after the index scenarios, whose answers (and
// cost) depend on the records. Who takes part in which, and against which baseline, is decided
// here too (`takesPart`, `baselineOf`), for the timing (run.mjs) and the checks alike.
import { FILTER_AUTHOR } from './data.mjs';

/** The scenario of `count=false`, timed on SQL only, against a baseline that does not count either. */
export const NOCOUNT = 'index-page-nocount';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The scenarios for a run over `books` records in `db`. `request()` answers one request
 * (`{ method, path, headers?, body? }`); when `varies` is true it is called for every request
 * sent (a random existing id), otherwise once. `baseline` names the contender a scenario's
 * ratios are computed against when it is not the run's; `contract` keeps out the contenders
 * that speak another API (their dialect cannot say it).
 */
export function scenarios({ books, db = 'memory' }) {
  const randomId = () => 1 + Math.floor(Math.random() * books);
  const nocount = {
    name: NOCOUNT,
    title: 'index page, count=false',
    description:
      'GET /api/books?page=3&per_page=25&count=false (no count: no X-Total-Count, no last link), against express-sql-nocount',
    baseline: 'express-sql-nocount',
    contract: true,
    request: () => ({ method: 'GET', path: '/api/books?page=3&per_page=25&count=false' }),
  };
  return [
    {
      name: 'show',
      title: 'show',
      description: 'GET /api/books/:id, a random id among the seeded books',
      varies: true,
      request: () => ({ method: 'GET', path: `/api/books/${randomId()}` }),
    },
    {
      name: 'index-page',
      title: 'index page',
      description: 'GET /api/books?page=3&per_page=25 (default order: id descending)',
      request: () => ({ method: 'GET', path: '/api/books?page=3&per_page=25' }),
    },
    ...(db === 'memory' ? [] : [nocount]),
    {
      name: 'index-filter-sort-page',
      title: 'index filter+sort+page',
      description: `GET /api/books?filter[author]=${FILTER_AUTHOR}&sort=-name&page=1&per_page=20 (1 book in 100 matches)`,
      request: () => ({
        method: 'GET',
        path: `/api/books?filter[author]=${encodeURIComponent(FILTER_AUTHOR)}&sort=-name&page=1&per_page=20`,
      }),
    },
    {
      name: 'update',
      title: 'update',
      description: 'PATCH /api/books/:id {"name": ...}, a random id among the seeded books',
      varies: true,
      request: () => ({
        method: 'PATCH',
        path: `/api/books/${randomId()}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: 'The Dispossessed' }),
      }),
    },
    {
      name: 'create',
      title: 'create',
      description: 'POST /api/books {"name": ..., "author": ...}',
      request: () => ({
        method: 'POST',
        path: '/api/books',
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: 'The Word for World Is Forest', author: 'Ursula Le Guin' }),
      }),
    },
  ];
}

/** The contender a scenario's ratios are computed against: its own baseline when that one runs, else the run's. */
export function baselineOf(scenario, names, runBaseline) {
  return scenario.baseline && names.includes(scenario.baseline) ? scenario.baseline : runBaseline;
}

/**
 * Whether a contender (`{ name, dialect?, scenarios? }`) is timed, and judged by the checks, in
 * a scenario: not outside the scenarios it is limited to, not in a `contract` scenario when it
 * speaks a dialect, and not the run's baseline where a scenario's own baseline replaces it.
 */
export function takesPart(contender, scenario, names, runBaseline) {
  if (contender.scenarios && !contender.scenarios.includes(scenario.name)) return false;
  if (scenario.contract && contender.dialect) return false;
  return !(contender.name === runBaseline && baselineOf(scenario, names, runBaseline) !== runBaseline);
}
