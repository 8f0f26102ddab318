import type { RelationName, RelationsOf, TargetModel } from './include.js';
import type { FieldName, FilterValue, ModelOf, ResourceLike } from './types.js';

// The types of the query language (CONTRACT part 3): operators per field type, filters through a
// belongs-to relation (`'author.country'`), and `fields`, which narrows the records answered.
// Read from the model's field types, so that the client still depends on nothing of the server.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The comparisons every ordered value takes: numbers, strings, dates and decimals.
 *
 * @example
 * ```ts
 * const years: Comparisons<number> = { gte: 1950, lt: 2000 };
 * ```
 */
export interface Comparisons<V> {
  eq?: V;
  ne?: V;
  gt?: V;
  gte?: V;
  lt?: V;
  lte?: V;
}

/**
 * The operators of a text field besides the comparisons: literal, case-sensitive.
 *
 * @example
 * ```ts
 * const titles: TextOperators = { prefix: 'The', contains: 'Wizard' };
 * ```
 */
export interface TextOperators {
  prefix?: string;
  contains?: string;
}

/** Whether a model field may be `null` (an optional field): it then takes the `null` operator. */
type IsNullable<M, K> = K extends keyof M ? (undefined extends M[K] ? true : null extends M[K] ? true : false) : false;

/**
 * The operators field `K` of model `M` takes, by its type: `eq ne` for booleans, and `gt gte lt
 * lte` too for numbers and strings; `prefix contains` for strings but `id` (a uuid); `null`
 * (`true` or `false`) for a field that may be `null`.
 *
 * @example
 * ```ts
 * const year: FilterOperators<Book, 'year'> = { gte: 2000, lt: 2010, null: false };
 * ```
 */
export type FilterOperators<M, K extends FieldName<M>> = Simplify<
  ([FilterValue<M, K>] extends [boolean]
    ? { eq?: FilterValue<M, K>; ne?: FilterValue<M, K> }
    : [FilterValue<M, K>] extends [string]
      ? K extends 'id'
        ? Comparisons<FilterValue<M, K>>
        : Comparisons<FilterValue<M, K>> & TextOperators
      : Comparisons<FilterValue<M, K>>) &
    (IsNullable<M, K> extends true ? { null?: boolean } : unknown)
>;

/**
 * What `filter` takes for one field: a value (equals), a list (any of), or operators (all of them
 * must hold).
 *
 * @example
 * ```ts
 * const a: FieldFilter<Book, 'year'> = 1968;
 * const b: FieldFilter<Book, 'year'> = [1968, 1969];
 * const c: FieldFilter<Book, 'year'> = { gte: 1950, lt: 2000 };
 * ```
 */
export type FieldFilter<M, K extends FieldName<M>> =
  | FilterValue<M, K>
  | readonly FilterValue<M, K>[]
  | FilterOperators<M, K>;

/**
 * The filters on a model's own fields; several combine with AND.
 *
 * @example
 * ```ts
 * const filter: ModelFilter<Book> = { year: { gte: 2000 }, title: { prefix: 'The' } };
 * ```
 */
export type ModelFilter<M> = { [K in FieldName<M>]?: FieldFilter<M, K> };

/** The belongs-to relations of a resource: those `filter` goes through. */
type BelongsToName<R> = {
  [N in RelationName<R>]: RelationsOf<R>[N] extends { readonly kind: 'belongsTo' | 'manyToMany' } ? N : never;
}[RelationName<R>];

/** `relation.field` for each belongs-to relation of R and each field of its target's model. */
type RelatedKey<R> = {
  [N in BelongsToName<R>]: `${N}.${FieldName<TargetModel<RelationsOf<R>[N]>>}`;
}[BelongsToName<R>];

/**
 * The filters through the belongs-to relations of resource R, by `relation.field`, each typed
 * as a filter of the related model's field.
 *
 * @example
 * ```ts
 * const filter: RelatedFilter<typeof books> = { 'author.country': 'UK', 'author.name': { prefix: 'Le' } };
 * ```
 */
export type RelatedFilter<R> = {
  [K in RelatedKey<R>]?: K extends `${infer N extends BelongsToName<R>}.${infer F}`
    ? F extends FieldName<TargetModel<RelationsOf<R>[N]>>
      ? FieldFilter<TargetModel<RelationsOf<R>[N]>, F>
      : never
    : never;
};

/**
 * The `filter` of an index of resource R: its own fields and those of its belongs-to relations.
 *
 * @example
 * ```ts
 * const filter: ResourceFilter<typeof books> = { year: { gte: 2000 }, 'author.country': 'UK' };
 * ```
 */
export type ResourceFilter<R extends ResourceLike> = ModelFilter<ModelOf<R>> & RelatedFilter<R>;

/**
 * A field `fields` may name: any field of the model, or `id` (which every record carries anyway).
 *
 * @example
 * ```ts
 * const names: FieldsName<Book>[] = ['title', 'year'];
 * ```
 */
export type FieldsName<M> = FieldName<M>;

/**
 * The `fields` option of show, index and each: the fields to answer, each at most once; records
 * then hold `id` and those fields only (and the relations `include` names).
 *
 * @example
 * ```ts
 * const option: FieldsOption<['title', 'year']> = { fields: ['title', 'year'] };
 * ```
 */
export interface FieldsOption<F extends readonly string[]> {
  fields?: F;
}

/**
 * A record T narrowed to `id` and the fields F names: exactly those for a list written in the
 * call, any of them (optional) for a list only known as `FieldsName<M>[]`; T itself without
 * `fields`, and for a `readonly` list of unknown length: that is the signature's own bound,
 * which `ReturnType` and the like read when no call gives the list.
 *
 * @example
 * ```ts
 * type B = WithFields<ClientRecord<Book>, ['title', 'year']>; // { id: number; title: string; year: number | null }
 * ```
 */
export type WithFields<T, F extends readonly string[]> = [F[number]] extends [never]
  ? T
  : number extends F['length']
    ? F extends unknown[]
      ? Simplify<Pick<T, 'id' & keyof T> & Partial<Pick<T, F[number] & keyof T>>>
      : T
    : Simplify<Pick<T, ('id' | F[number]) & keyof T>>;
