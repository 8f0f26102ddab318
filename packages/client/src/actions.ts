/**
 * How the client calls each action of a resource: the HTTP method, whether it goes to the
 * collection URL (`/api/books`) or a member URL (`/api/books/7`), and the status of a success
 * (a `204` carries no body to read). The same table as the server's (`ACTIONS` of
 * `@resourcery/core/adapter`), written out here so that the client depends on nothing; a test
 * keeps the two in step.
 */
export const CLIENT_ACTIONS = Object.freeze({
  create: { method: 'POST', target: 'collection', status: 200 },
  update: { method: 'PATCH', target: 'member', status: 200 },
  destroy: { method: 'DELETE', target: 'member', status: 204 },
  show: { method: 'GET', target: 'member', status: 200 },
  index: { method: 'GET', target: 'collection', status: 200 },
  stats: { method: 'GET', target: 'stats', status: 200 },
  events: { method: 'GET', target: 'events', status: 200 },
} as const);

/** The actions a client calls (`stats` and `events` only on a resource that serves them). */
export type ClientAction = keyof typeof CLIENT_ACTIONS;
