import type { DataKey, IsServerSet } from './types.js';

// What a client sends: the bodies of create and update, from the model and the declaration.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The fields a client may send: the model's data fields but `id` and those marked `ServerSet`.
 *
 * @example
 * ```ts
 * type K = InputKey<Review>; // 'bookId' | 'rating' | 'body' (not 'id', not 'createdAt')
 * ```
 */
export type InputKey<M> = {
  [K in DataKey<M>]-?: K extends 'id' ? never : IsServerSet<M[K]> extends true ? never : K;
}[DataKey<M>];

/**
 * The attributes a resource declares a default for (`defaults: { status: 'open' }`): a create may
 * leave them out. `never` for a resource type that does not say (one written by hand).
 *
 * @example
 * ```ts
 * type D = DefaultedKey<typeof issues>; // 'status' | 'priority'
 * ```
 */
export type DefaultedKey<R> = R extends { readonly defaults?: infer X } ? keyof X & string : never;

/**
 * The body of a create: the model's fields, optional ones optional, and those named in `D`
 * (the attributes with a default, {@link DefaultedKey}) optional too. The server assigns `id` and
 * the fields marked `ServerSet` (timestamps, or an owner set from the request).
 *
 * @example
 * ```ts
 * const input: CreateInput<Book> = { name: 'Dune', author: 'Frank Herbert' };
 * const issue: CreateInput<Issue, 'status'> = { projectId: 1, title: 'Crash on start' }; // status defaulted
 * ```
 */
export type CreateInput<M, D extends string = never> = Simplify<
  Pick<M, Exclude<InputKey<M>, D>> & Partial<Pick<M, Extract<InputKey<M>, D>>>
>;

/**
 * The body of an update: any of the fields a create takes; those not sent keep their values.
 *
 * @example
 * ```ts
 * const changes: UpdateInput<Book> = { name: 'Dune Messiah' };
 * ```
 */
export type UpdateInput<M> = Simplify<Partial<Pick<M, InputKey<M>>>>;
