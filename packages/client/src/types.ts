import type { ModelFilter } from './query-types.js';

/**
 * What the client needs of a resource's type: its model and its names. Every `Resource` made by
 * `defineResource` of `@resourcery/core` fits, so the client is typed by `typeof books` without
 * importing the server's code at run time (and without depending on `@resourcery/core` at all).
 *
 * @example
 * ```ts
 * import type { books } from '../server/book.js'; // a type-only import: nothing of the server is bundled
 * const client = resourceClient<typeof books>({ baseUrl: '/api', name: 'book' });
 * ```
 */
export interface ResourceLike {
  readonly name: string;
  readonly plural: string;
  readonly model: abstract new (...args: never[]) => object;
}

/**
 * A resource type written by hand, for a client that cannot see the server's declaration.
 *
 * @example
 * ```ts
 * type Books = ResourceType<{ name: string; author: string }, 'book'>;
 * const books = resourceClient<Books>({ baseUrl: 'https://example.com/api', name: 'book' });
 * ```
 */
export type ResourceType<M extends object, N extends string = string, P extends string = string> = {
  readonly name: N;
  readonly plural: P;
  readonly model: new () => M;
};

/**
 * The model (the decorated class's instance type) of a resource type.
 *
 * @example
 * ```ts
 * type M = ModelOf<typeof books>; // Book
 * ```
 */
export type ModelOf<R extends ResourceLike> = R['model'] extends abstract new (...args: never[]) => infer M ? M : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The model's data fields (methods left out).
 *
 * @example
 * ```ts
 * type K = DataKey<Book>; // 'name' | 'author'
 * ```
 */
export type DataKey<M> = {
  [K in keyof M]-?: M[K] extends (...args: never[]) => unknown ? never : K;
}[keyof M] &
  string;

/**
 * Attribute names usable in `filter` and `sort`: the model's fields and `id`.
 *
 * @example
 * ```ts
 * type F = FieldName<Book>; // 'name' | 'author' | 'id'
 * ```
 */
export type FieldName<M> = DataKey<M> | 'id';

/**
 * A record as the server sends it: `id` and every field of the model, an optional field being
 * `null` when unset. (A resource whose `show` allow-list hides fields sends fewer: pass your own
 * record type as `resourceClient`'s second type argument.)
 *
 * @example
 * ```ts
 * type BookRecord = ClientRecord<Book>; // { id: number; name: string; author: string; year: number | null }
 * ```
 */
export type ClientRecord<M> = Simplify<
  { id: RecordId<M> } & {
    [K in Exclude<DataKey<M>, 'id'>]-?: undefined extends M[K]
      ? Unmarked<Exclude<M[K], undefined>> | null
      : Unmarked<M[K]>;
  }
>;

/** Symbol keys of a value type beyond those of its primitive: a brand's. */
type BrandKey<T> = Exclude<Extract<keyof T, symbol>, keyof string | keyof number | keyof boolean>;

/**
 * Whether a model field's type is marked `ServerSet<...>` (the core's brand, an optional `true`
 * under a symbol of its own): the server sets it, clients only read it.
 */
export type IsServerSet<T> = [BrandKey<NonNullable<T>>] extends [never]
  ? false
  : NonNullable<T>[BrandKey<NonNullable<T>>] extends true | undefined
    ? true
    : false;

/** A field's type without the `ServerSet` mark: what the JSON holds. */
export type Unmarked<T> =
  IsServerSet<T> extends true
    ?
        | (NonNullable<T> extends string ? string : NonNullable<T> extends number ? number : NonNullable<T>)
        | Extract<T, null>
    : T;

/**
 * The id of a model's records: what the model declares for `id` (`id!: ServerSet<string>` for
 * uuids), else a number.
 *
 * @example
 * ```ts
 * type A = RecordId<Book>; // number
 * type B = RecordId<Review>; // string (Review declares `@IsUUID() id!: ServerSet<string>`)
 * ```
 */
export type RecordId<M> = 'id' extends keyof M ? Unmarked<M['id' & keyof M]> : number;

/**
 * A value a field can be filtered on (`null` cannot be).
 *
 * @example
 * ```ts
 * type V = FilterValue<Book, 'year'>; // number
 * ```
 */
export type FilterValue<M, K extends FieldName<M>> = K extends 'id'
  ? RecordId<M>
  : K extends keyof M
    ? Extract<NonNullable<Unmarked<M[K]>>, string | number | boolean>
    : never;

/**
 * A sort key: a field name, `-` first for descending.
 *
 * @example
 * ```ts
 * const keys: SortKey<Book>[] = ['-name', 'id'];
 * ```
 */
export type SortKey<M> = FieldName<M> | `-${FieldName<M>}`;

/**
 * The parameters of an index: per field a value is equality, a list "any of", an object
 * operators (`{ gte: 2000, lt: 2010 }`); several fields combine with AND.
 *
 * @example
 * ```ts
 * const params: IndexParams<Book> = { filter: { author: ['A', 'B'], year: { gte: 2000 } }, sort: ['-name'], page: 2 };
 * ```
 */
export interface IndexParams<M> {
  filter?: ModelFilter<M>;
  sort?: SortKey<M> | readonly SortKey<M>[];
  /** From 1. */
  page?: number;
  /** Sent as `per_page`; the server's default applies when absent. */
  perPage?: number;
  /**
   * `false`: the server skips counting (`total` is `undefined`); `true`: counts where the resource
   * does not by default; `'estimated'`: exact on small results, else the store's estimate, if it
   * makes one (`total` then holds it and `estimated` is `true`).
   */
  count?: boolean | 'estimated';
  /** Cursor pagination: the page after this cursor (a result's `nextCursor`); without it, the first page. */
  after?: string;
  /** `true`: archived records too, on a resource declared with `archive` (`archived=true`). */
  archived?: boolean;
  /**
   * Search, sent as `q`: the records where every word of it begins a word of one of the fields the
   * resource declares in `search` (a resource without `search` answers 400, as does a `q` without a word).
   */
  q?: string;
}

/**
 * The relations of the `Link` header of an index response.
 *
 * @example
 * ```ts
 * const rel: PageRelation = 'next';
 * ```
 */
export type PageRelation = 'first' | 'prev' | 'next' | 'last';

/**
 * One page of an index: the records from the body, and the pagination the server sent in the
 * `X-Total-Count` and `Link` headers.
 *
 * @example
 * ```ts
 * const { records, total, next } = await books.index({ perPage: 10 });
 * if (next) await books.index({ perPage: 10, page: next });
 * ```
 */
export interface IndexResult<T> {
  records: T[];
  /**
   * Records matching the filters on all pages (`X-Total-Count`, or `X-Total-Count-Estimate` with
   * `count: 'estimated'`); `undefined` when the server did not count.
   */
  total: number | undefined;
  /** Whether `total` is an estimate (then there is no `last`): see `count: 'estimated'`. */
  estimated: boolean;
  /** The number of the next page, `undefined` on the last one. */
  next: number | undefined;
  /** The number of the previous page, `undefined` on the first one. */
  prev: number | undefined;
  /** The number of the last page, when the server knows it. */
  last: number | undefined;
  /** Cursor pagination: the `after` of the next page, `undefined` on the last one. */
  nextCursor: string | undefined;
  /** The `Link` header's targets by relation, as absolute URLs. */
  links: Partial<Record<PageRelation, string>>;
}

/**
 * Options of one call.
 *
 * @example
 * ```ts
 * await books.show(7, { signal: AbortSignal.timeout(5000), headers: { 'x-request-id': id } });
 * ```
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers for this call. */
  headers?: HeadersInit;
}
