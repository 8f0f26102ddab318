import { CLIENT_ACTIONS, type ClientAction } from './actions.js';
import { type BulkMethods, bulkMethods } from './bulk.js';
import { etags, type ShowOptions, tagOf, type WriteOptions } from './etags.js';
import type { EachMethod, IdOfResource, IndexMethod, ResourceRecord, ShowMethod } from './include.js';
import type { CreateInput, DefaultedKey, UpdateInput } from './inputs.js';
import { eachRecord, indexResult } from './paging.js';
import { pluralize } from './plural.js';
import { indexQueryString, type RawIndexParams } from './query-string.js';
import { ResourceError } from './resource-error.js';
import { type StatsMethod, statsQueryString } from './stats.js';
import type { CallOptions, ModelOf, ResourceLike } from './types.js';
import { type WatchMethod, watchMethod } from './watch.js';

/**
 * Options of {@link resourceClient}. `name` must be the resource's declared name; `plural` is
 * required (and checked) when the declaration sets one, and defaults to the English plural of
 * `name` otherwise, as on the server.
 *
 * @example
 * ```ts
 * const options: ClientOptions<typeof books> = { baseUrl: '/api', name: 'book', token: () => session.token() };
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
  /** Headers sent with every request, or a function answering them. */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /**
   * The bearer token, sent as `Authorization: Bearer <token>` with every request, or a function
   * answering it, called per request (so a refreshed token is used); `undefined` or `''` sends none.
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
} & (string extends R['plural'] ? { plural?: string } : { plural: R['plural'] });

/**
 * The five actions of one resource over HTTP, `restore` (an update that brings back an archived
 * record), and the bulk writes and upserts of {@link BulkMethods}; every failure throws a
 * {@link ResourceError}.
 *
 * @example
 * ```ts
 * async function firstPage(books: ResourceClient<typeof booksResource>) {
 *   return (await books.index({ perPage: 10 })).records;
 * }
 * ```
 */
export interface ResourceClient<R extends ResourceLike, T = ResourceRecord<R>> extends BulkMethods<R, T> {
  /** The collection's URL, e.g. `http://localhost:3000/api/books`. */
  readonly url: string;
  /** One page of records, with the pagination from the headers. */
  index: IndexMethod<R, T>;
  /** Every record matching `params`, page after page (following `next`), as they arrive. */
  each: EachMethod<R, T>;
  /** The record; with `ifNoneMatch`, that copy itself when the record has not changed (304). */
  show: ShowMethod<R, T, ShowOptions<T>>;
  /** Creates a record; the attributes with a declared default may be left out. */
  create(values: CreateInput<ModelOf<R>, DefaultedKey<R>>, options?: CallOptions): Promise<T>;
  /** Changes only the fields given; answers the whole record after the change. */
  update(id: IdOfResource<R>, changes: UpdateInput<ModelOf<R>>, options?: WriteOptions<T>): Promise<T>;
  destroy(id: IdOfResource<R>, options?: WriteOptions<T>): Promise<void>;
  /**
   * Restores an archived record (a resource declared with `archive`): `PATCH …/:id?archived=true`
   * with `{"<field>": null}`, `field` being the archive field (`'archivedAt'`). Answers the record;
   * a 403 `ResourceError` naming the field for a caller who may not destroy it.
   */
  restore(id: IdOfResource<R>, field: keyof ModelOf<R> & string, options?: WriteOptions<T>): Promise<T>;
  /** Statistics (`GET /<plural>/stats`, on a resource declaring `stats`): one entry per group. */
  stats: StatsMethod<ModelOf<R>>;
  /**
   * Live events (`GET /<plural>/events`, on a resource declared `live: true`): calls `onEvent`
   * with each change of a record you may see that the filters keep, reconnecting with
   * `Last-Event-ID` until `close()`; see {@link WatchEvent} and {@link Watch}.
   */
  watch: WatchMethod<R, T>;
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
 * // On a resource declared with `archive: 'archivedAt'`, destroy archives; this brings it back:
 * await client.restore(dune.id, 'archivedAt');
 * // On a resource declared `live: true`: each change as it is committed, until `close()`.
 * const watch = client.watch({ filter: { author: 'Frank Herbert' } }, (event) => console.log(event.type));
 * ```
 */
export function resourceClient<R extends ResourceLike, T = ResourceRecord<R>>(
  options: ClientOptions<R>,
): ResourceClient<R, T> {
  const name: string = options.name;
  const plural: string = (options as { plural?: string }).plural ?? pluralize(name);
  const base = String(options.baseUrl).replace(/\/+$/, '');
  const url = `${base}/${encodeURIComponent(options.path ?? plural)}`;
  // A browser's `fetch` must be called unbound from `window`, never as a method of another object.
  const send = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));

  /** The headers of every request: the client's, its token's, and the call's own. */
  async function headersOf(call: CallOptions): Promise<Headers> {
    const shared = typeof options.headers === 'function' ? await options.headers() : options.headers;
    const headers = new Headers(shared);
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    new Headers(call.headers).forEach((value, key) => {
      headers.set(key, value);
    });
    return headers;
  }

  /** Sends one action's request (its method from the action table) to `target`. */
  async function request(
    action: ClientAction,
    target: string,
    call: CallOptions & { ifMatch?: unknown; ifNoneMatch?: unknown } = {},
    body?: unknown,
  ): Promise<Response> {
    const spec = CLIENT_ACTIONS[action];
    const ifMatch = typeof call.ifMatch === 'string' ? call.ifMatch : tagOf(call.ifMatch);
    // Asked for a conditional write without a known version: refuse rather than write unchecked.
    if (Object.hasOwn(call, 'ifMatch') && ifMatch === undefined) {
      throw new TypeError(`${action}: ifMatch has no ETag; pass a record from show, create or update, or an ETag`);
    }
    const ifNoneMatch = tagOf(call.ifNoneMatch);
    const headers = await headersOf(call);
    if (!headers.has('accept')) headers.set('accept', 'application/json, application/problem+json');
    if (body !== undefined) headers.set('content-type', 'application/json');
    if (ifMatch !== undefined) headers.set('if-match', ifMatch);
    if (ifNoneMatch !== undefined) headers.set('if-none-match', ifNoneMatch);
    const init: RequestInit = { method: spec.method, headers, signal: call.signal };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await send(target, init);
    if (response.status === 304 && ifNoneMatch !== undefined) return response;
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

  /** The list under `key` of a JSON body, or a ResourceError saying the answer was not what the contract says. */
  async function list(response: Response, key: string): Promise<unknown[]> {
    const value = await member(response, key);
    if (!Array.isArray(value)) throw ResourceError.unexpected(response, `"${key}" is not a list`);
    return value;
  }

  /** The URL of an action: the collection's, or the member's (`id`) for a member action. */
  const urlOf = (action: ClientAction, id?: unknown) => {
    const { target } = CLIENT_ACTIONS[action];
    return target === 'member'
      ? `${url}/${encodeURIComponent(String(id))}`
      : target === 'collection'
        ? url
        : `${url}/${target}`;
  };
  /** The record of a member answer (typed as the call's signature says), its ETag kept for {@link etagOf}. */
  const record = async <V = T>(response: Response) => {
    const value = (await member(response, name)) as V;
    const etag = response.headers.get('etag');
    if (etag !== null && typeof value === 'object' && value !== null) etags.set(value, etag);
    return value;
  };

  const client: ResourceClient<R, T> = {
    url,
    async index(params, call) {
      const query = indexQueryString(params as RawIndexParams | undefined);
      const target = query ? `${urlOf('index')}?${query}` : urlOf('index');
      const response = await request('index', target, call);
      // As the signature says: T with what `include` adds and `fields` keeps.
      return indexResult((await list(response, plural)) as never[], response, target);
    },
    each(params, call) {
      return eachRecord((page: typeof params) => client.index(page, call), params ?? {}) as never;
    },
    async show(id, call) {
      const query = indexQueryString({ include: call?.include, fields: call?.fields, archived: call?.archived });
      const response = await request('show', query ? `${urlOf('show', id)}?${query}` : urlOf('show', id), call);
      if (response.status !== 304) return record(response);
      await response.body?.cancel();
      return call?.ifNoneMatch as never; // not modified: the copy the caller holds is current
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
    async restore(id, field, call) {
      return record(await request('update', `${urlOf('update', id)}?archived=true`, call, { [field]: null }));
    },
    async stats(params, call) {
      const query = statsQueryString((params ?? {}) as Parameters<typeof statsQueryString>[0]);
      const response = await request('stats', query ? `${urlOf('stats')}?${query}` : urlOf('stats'), call);
      return (await list(response, 'stats')) as never;
    },
    watch: watchMethod<R, T>({ url: urlOf('events'), name, headersOf, send }),
    ...bulkMethods<R, T>({ url, name, plural, send: request, list, record }),
  };
  return client;
}
