/**
 * The five actions of a resource, `stats` (opt-in: `stats:` in the declaration) and `events`
 * (opt-in: `live: true`, the live events of CONTRACT part 4).
 */
export type ActionName = 'create' | 'update' | 'destroy' | 'show' | 'index' | 'stats' | 'events';

/**
 * Where an action is served: the collection (`/books`), one member (`/books/:id`), the
 * collection's statistics (`/books/stats`) or its live events (`/books/events`); those two are
 * routed before `/:id` when the resource serves them.
 */
export type ActionTarget = 'collection' | 'member' | 'stats' | 'events';

/** One row of the contract's action table. */
export interface ActionSpec {
  readonly name: ActionName;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly target: ActionTarget;
  /** The status of a successful answer. */
  readonly status: 200 | 204;
}

/**
 * The action table of the contract (CONTRACT part 1): the one source of routing, the `Allow`
 * header, the OpenAPI operations and the client's methods.
 *
 * @example
 * ```ts
 * ACTIONS.find((action) => action.name === 'destroy'); // { method: 'DELETE', target: 'member', status: 204, ... }
 * ```
 */
export const ACTIONS: readonly ActionSpec[] = Object.freeze([
  { name: 'create', method: 'POST', target: 'collection', status: 200 },
  { name: 'update', method: 'PATCH', target: 'member', status: 200 },
  { name: 'destroy', method: 'DELETE', target: 'member', status: 204 },
  { name: 'show', method: 'GET', target: 'member', status: 200 },
  { name: 'index', method: 'GET', target: 'collection', status: 200 },
  { name: 'stats', method: 'GET', target: 'stats', status: 200 },
  { name: 'events', method: 'GET', target: 'events', status: 200 },
] as const);

/** The action names, in the table's order. */
export const ACTION_NAMES: readonly ActionName[] = ACTIONS.map((spec) => spec.name);

/**
 * The bulk writes of a resource that takes them (CONTRACT part 4): `PATCH` and `DELETE` on the
 * collection update and destroy several records (a bulk create is a `POST` with a list).
 *
 * @example
 * ```ts
 * BULK_ACTIONS.find((action) => action.name === 'destroy'); // { method: 'DELETE', target: 'collection', status: 204, ... }
 * ```
 */
export const BULK_ACTIONS: readonly ActionSpec[] = Object.freeze([
  { name: 'update', method: 'PATCH', target: 'collection', status: 200 },
  { name: 'destroy', method: 'DELETE', target: 'collection', status: 204 },
] as const);

/**
 * The action a method asks for on a target (`HEAD` is `GET` without a body), if any; with
 * `bulk`, also the bulk writes on the collection.
 */
export function actionFor(method: string, target: ActionTarget, bulk = false): ActionName | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  const matches = (spec: ActionSpec) => spec.method === verb && spec.target === target;
  return ACTIONS.find(matches)?.name ?? (bulk ? BULK_ACTIONS.find(matches)?.name : undefined);
}

/**
 * The `Allow` header of a target when only `enabled` actions are served (and, with `bulk`, the
 * bulk writes): their methods in the table's order, `HEAD` after `GET`, and always `OPTIONS`.
 */
export function allowedMethods(enabled: ReadonlySet<ActionName>, target: ActionTarget, bulk = false): string {
  const methods: string[] = [];
  for (const spec of bulk ? [...ACTIONS, ...BULK_ACTIONS] : ACTIONS) {
    if (spec.target !== target || !enabled.has(spec.name)) continue;
    methods.push(spec.method);
    if (spec.method === 'GET') methods.push('HEAD');
  }
  // GET first, as clients read it: GET, HEAD, then writes.
  methods.sort((a, b) => rank(a) - rank(b));
  return [...methods, 'OPTIONS'].join(', ');
}

function rank(method: string): number {
  return ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'].indexOf(method);
}
