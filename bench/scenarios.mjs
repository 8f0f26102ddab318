// The timed scenarios, in the order they run: reads first, then writes. Update rewrites titles
// and create grows the collection, so they come after the index scenarios, whose answers (and
// cost) depend on the records.
import { FILTER_AUTHOR } from './data.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The scenarios for a run over `books` records. `request()` answers one request
 * (`{ method, path, headers?, body? }`); when `varies` is true it is called for every request
 * sent (a random existing id), otherwise once.
 */
export function scenarios({ books }) {
  const randomId = () => 1 + Math.floor(Math.random() * books);
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
