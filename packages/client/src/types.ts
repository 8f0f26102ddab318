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
  { id: number } & { [K in DataKey<M>]-?: undefined extends M[K] ? Exclude<M[K], undefined> | null : M[K] }
>;

/**
 * The body of a create: the model's fields, optional ones optional. The server assigns `id`.
 *
 * @example
 * ```ts
 * const input: CreateInput<Book> = { name: 'Dune', author: 'Frank Herbert' };
 * ```
 */
export type CreateInput<M> = Simplify<Pick<M, DataKey<M>>>;

/**
 * The body of an update: any of the model's fields; those not sent keep their values.
 *
 * @example
 * ```ts
 * const changes: UpdateInput<Book> = { name: 'Dune Messiah' };
 * ```
 */
export type UpdateInput<M> = Simplify<Partial<Pick<M, DataKey<M>>>>;

/**
 * A value a field can be filtered on (`null` cannot be).
 *
 * @example
 * ```ts
 * type V = FilterValue<Book, 'year'>; // number
 * ```
 */
export type FilterValue<M, K extends FieldName<M>> = K extends 'id'
  ? number
  : K extends keyof M
    ? Extract<NonNullable<M[K]>, string | number | boolean>
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
 * The parameters of an index: one value per field is equality, a list is "any of"; several
 * fields combine with AND.
 *
 * @example
 * ```ts
 * const params: IndexParams<Book> = { filter: { author: ['A', 'B'] }, sort: ['-name'], page: 2, perPage: 20 };
 * ```
 */
export interface IndexParams<M> {
  filter?: { [K in FieldName<M>]?: FilterValue<M, K> | readonly FilterValue<M, K>[] };
  sort?: SortKey<M> | readonly SortKey<M>[];
  /** From 1. */
  page?: number;
  /** Sent as `per_page`; the server's default applies when absent. */
  perPage?: number;
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
  /** Records matching the filters on all pages; `undefined` when the server did not count. */
  total: number | undefined;
  /** The number of the next page, `undefined` on the last one. */
  next: number | undefined;
  /** The number of the previous page, `undefined` on the first one. */
  prev: number | undefined;
  /** The number of the last page, when the server knows it. */
  last: number | undefined;
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
