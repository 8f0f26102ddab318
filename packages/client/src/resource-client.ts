import { CLIENT_ACTIONS, type ClientAction } from './actions.js';
import { indexQueryString, pageOf, parseLinks, type RawIndexParams } from './query-string.js';
import { ResourceError } from './resource-error.js';
import type {
  CallOptions,
  ClientRecord,
  CreateInput,
  IndexParams,
  IndexResult,
  ModelOf,
  ResourceLike,
  UpdateInput,
} from './types.js';

/**
 * Options of {@link resourceClient}. `name` must be the resource's declared name; `plural` is
 * required (and checked) when the declaration sets one, and defaults to the English plural of
 * `name` otherwise, as on the server.
 *
 * @example
 * ```ts
 * const options: ClientOptions<typeof books> = { baseUrl: '/api', name: 'book', headers: { authorization } };
 * ```
 */
export type ClientOptions<R extends ResourceLike> = {
  /** Where the resources are mounted: `http://localhost:3000/api`, or `/api` in a browser. */
  baseUrl: string | URL;
  /** The singular name: the key of a record in bodies (`book`). */
  name: R['name'];
  /** The path segment, when the declaration sets a `path`; defaults to the plural. */
  path?: string;
  /** The `fetch` to use (to add credentials, retries or logging); defaults to the global one. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Headers sent with every request, or a function answering them (e.g. a fresh token). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
} & (string extends R['plural'] ? { plural?: string } : { plural: R['plural'] });

/**
 * The five actions of one resource over HTTP; every failure throws a {@link ResourceError}.
 *
 * @example
 * ```ts
 * async function firstPage(books: ResourceClient<typeof booksResource>) {
 *   return (await books.index({ perPage: 10 })).records;
 * }
 * ```
 */
export interface ResourceClient<R extends ResourceLike, T = ClientRecord<ModelOf<R>>> {
  /** The collection's URL, e.g. `http://localhost:3000/api/books`. */
  readonly url: string;
  /** One page of records, with the pagination from the headers. */
  index(params?: IndexParams<ModelOf<R>>, options?: CallOptions): Promise<IndexResult<T>>;
  /** Every record matching `params`, page after page (following `next`), as they arrive. */
  each(params?: IndexParams<ModelOf<R>>, options?: CallOptions): AsyncIterable<T>;
  show(id: number, options?: CallOptions): Promise<T>;
  create(values: CreateInput<ModelOf<R>>, options?: CallOptions): Promise<T>;
  /** Changes only the fields given; answers the whole record after the change. */
  update(id: number, changes: UpdateInput<ModelOf<R>>, options?: CallOptions): Promise<T>;
  destroy(id: number, options?: CallOptions): Promise<void>;
}

/**
 * English plural of a simple noun, the same rule as the server's default.
 *
 * @example
 * ```ts
 * pluralize('category'); // 'categories'
 * ```
 */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * A typed client for one resource, built on `fetch` (Node 20 and browsers), typed from the
 * resource's declaration with no code generation: filter and sort keys, inputs and records all
 * come from the model class.
 *
 * @example
 * ```ts
 * import type { books } from './book.js';
 * const client = resourceClient<typeof books>({ baseUrl: 'http://localhost:3000/api', name: 'book' });
 * const { records, total, next } = await client.index({ filter: { author: ['A', 'B'] }, sort: ['-name'], perPage: 20 });
 * const dune = await client.create({ name: 'Dune', author: 'Frank Herbert' });
 * await client.update(dune.id, { name: 'Dune Messiah' });
 * await client.destroy(dune.id);
 * ```
 */
export function resourceClient<R extends ResourceLike, T = ClientRecord<ModelOf<R>>>(
  options: ClientOptions<R>,
): ResourceClient<R, T> {
  const name: string = options.name;
  const plural: string = (options as { plural?: string }).plural ?? pluralize(name);
  const base = String(options.baseUrl).replace(/\/+$/, '');
  const url = `${base}/${encodeURIComponent(options.path ?? plural)}`;
  // A browser's `fetch` must be called unbound from `window`, never as a method of another object.
  const send = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));

  /** Sends one action's request (its method from the action table) to `target`. */
  async function request(
    action: ClientAction,
    target: string,
    call: CallOptions = {},
    body?: unknown,
  ): Promise<Response> {
    const spec = CLIENT_ACTIONS[action];
    const shared = typeof options.headers === 'function' ? await options.headers() : options.headers;
    const headers = new Headers(shared);
    new Headers(call.headers).forEach((value, key) => {
      headers.set(key, value);
    });
    if (!headers.has('accept')) headers.set('accept', 'application/json, application/problem+json');
    if (body !== undefined) headers.set('content-type', 'application/json');
    const init: RequestInit = { method: spec.method, headers, signal: call.signal };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await send(target, init);
    if (!response.ok) throw await ResourceError.fromResponse(response);
    // A success without content (destroy's 204) has no body to read: release the connection.
    if (spec.status === 204) await response.body?.cancel();
    return response;
  }

  /** The member `key` of a JSON body, or a ResourceError saying the answer was not what the contract says. */
  async function member(response: Response, key: string): Promise<unknown> {
    const body: unknown = await response.json().catch(() => undefined);
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
    if (value === undefined) throw ResourceError.unexpected(response, `The response body has no "${key}" member`);
    return value;
  }

  /** The URL of an action: the collection's, or the member's (`id`) for a member action. */
  const urlOf = (action: ClientAction, id?: number) =>
    CLIENT_ACTIONS[action].target === 'member' ? `${url}/${encodeURIComponent(String(id))}` : url;
  const record = async (response: Response) => (await member(response, name)) as T;

  const client: ResourceClient<R, T> = {
    url,
    async index(params, call) {
      const query = indexQueryString(params as RawIndexParams | undefined);
      const target = query ? `${urlOf('index')}?${query}` : urlOf('index');
      const response = await request('index', target, call);
      const records = await member(response, plural);
      if (!Array.isArray(records)) throw ResourceError.unexpected(response, `"${plural}" is not a list`);
      const links = parseLinks(response.headers.get('link'), response.url || target);
      const total = response.headers.get('x-total-count');
      return {
        records: records as T[],
        total: total === null ? undefined : Number(total),
        next: pageOf(links.next),
        prev: pageOf(links.prev),
        last: pageOf(links.last),
        links,
      };
    },
    async *each(params, call) {
      let page: number | undefined = params?.page ?? 1;
      while (page !== undefined) {
        const result: IndexResult<T> = await client.index({ ...params, page }, call);
        yield* result.records;
        page = result.next;
      }
    },
    async show(id, call) {
      return record(await request('show', urlOf('show', id), call));
    },
    async create(values, call) {
      return record(await request('create', urlOf('create'), call, values));
    },
    async update(id, changes, call) {
      return record(await request('update', urlOf('update', id), call, changes));
    },
    async destroy(id, call) {
      await request('destroy', urlOf('destroy', id), call);
    },
  };
  return client;
}
