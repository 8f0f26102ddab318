import type { FieldsName, FieldsOption, ResourceFilter, WithFields } from './query-types.js';
import type { CallOptions, ClientRecord, IndexParams, IndexResult, ModelOf, RecordId, ResourceLike } from './types.js';

// The types of `include`: which names a resource takes, and what each adds to its records. Read
// from the declaration's `relations` (`belongsTo(Author, ...)`, `hasMany(Book, ...)`) by shape,
// so that the client still depends on nothing of the server.

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type AnyClass = abstract new (...args: never[]) => object;

/**
 * The relations a resource declares, by the name `include` takes (`{}` when it has none).
 *
 * @example
 * ```ts
 * type R = RelationsOf<typeof books>; // { author: BelongsTo<Author>; reviews: HasMany<Review> }
 * ```
 */
// biome-ignore lint/complexity/noBannedTypes: no relations
export type RelationsOf<R> = R extends { readonly relations: infer X } ? X : {};

/**
 * A relation name of a resource: what `include` accepts.
 *
 * @example
 * ```ts
 * const names: RelationName<typeof books>[] = ['author', 'reviews'];
 * ```
 */
export type RelationName<R> = keyof RelationsOf<R> & string;

/** The model a relation's target serves: the class given, or the model of the resource an arrow function answers. */
export type TargetModel<X> = X extends { readonly target: infer Target }
  ? [Extract<Target, AnyClass>] extends [never]
    ? Target extends () => { readonly model: abstract new (...args: never[]) => infer T }
      ? T
      : never
    : Extract<Target, AnyClass> extends abstract new (
          ...args: never[]
        ) => infer T
      ? T
      : never
  : never;

/**
 * The fields of a resource's records holding the ids of a many-to-many relation (`labelIds`).
 *
 * @example
 * ```ts
 * type K = IdsFieldOf<typeof issues>; // 'labelIds'
 * ```
 */
export type IdsFieldOf<R> = {
  [N in keyof RelationsOf<R>]: RelationsOf<R>[N] extends { readonly kind: 'manyToMany'; readonly ids: infer K }
    ? K & string
    : never;
}[keyof RelationsOf<R>];

/**
 * A record of resource `R` as it answers: its model's fields, and the ids of each many-to-many
 * relation as an array (never `null`: `[]` when there is none).
 *
 * @example
 * ```ts
 * type I = ResourceRecord<typeof issues>; // { id: number; title: string; ...; labelIds: number[] }
 * ```
 */
export type ResourceRecord<R extends ResourceLike> = [IdsFieldOf<R>] extends [never]
  ? ClientRecord<ModelOf<R>>
  : Simplify<
      Omit<ClientRecord<ModelOf<R>>, IdsFieldOf<R>> & {
        [N in keyof RelationsOf<R> as RelationsOf<R>[N] extends {
          readonly kind: 'manyToMany';
          readonly ids: infer K extends string;
        }
          ? K
          : never]: RecordId<TargetModel<RelationsOf<R>[N]>>[];
      }
    >;

/**
 * What a relation adds to a record: a belongs-to the related record or `null`, a has-many or a
 * many-to-many an array of the related records.
 *
 * @example
 * ```ts
 * type A = IncludedValue<RelationsOf<typeof books>['author']>; // ClientRecord<Author> | null
 * ```
 */
export type IncludedValue<X> = X extends { readonly kind: 'belongsTo' }
  ? ClientRecord<TargetModel<X>> | null
  : X extends { readonly kind: 'hasMany' | 'manyToMany' }
    ? ClientRecord<TargetModel<X>>[]
    : never;

/**
 * A record `T` of resource `R` with the relations `include` names in `I`: exactly those for a
 * list written in the call (`['author']`), any of them (optional) for a list only known as
 * `RelationName<R>[]`.
 *
 * @example
 * ```ts
 * type B = WithIncluded<ClientRecord<Book>, typeof books, ['author']>; // { id, title, ..., author: ClientRecord<Author> | null }
 * ```
 */
export type WithIncluded<T, R, I extends readonly string[]> = [I[number]] extends [never]
  ? T
  : number extends I['length']
    ? Simplify<T & { [N in I[number] & keyof RelationsOf<R>]?: IncludedValue<RelationsOf<R>[N]> }>
    : Simplify<T & { [N in I[number] & keyof RelationsOf<R>]: IncludedValue<RelationsOf<R>[N]> }>;

/**
 * The `include` option of show and index (and each): the relations to add to every record,
 * each at most once.
 *
 * @example
 * ```ts
 * const option: IncludeOption<['author']> = { include: ['author'] };
 * ```
 */
export interface IncludeOption<I extends readonly string[]> {
  include?: I;
}

/**
 * The id of a resource's records in calls: `RecordId` of its model.
 *
 * @example
 * ```ts
 * const id: IdOfResource<typeof reviews> = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
 * ```
 */
export type IdOfResource<R extends ResourceLike> = RecordId<ModelOf<R>>;

/** A list of relation names of R, as `include` takes it. */
type Names<R> = readonly RelationName<R>[];
/** A list of field names of R, as `fields` takes it. */
type Fields<R extends ResourceLike> = readonly FieldsName<ModelOf<R>>[];

/**
 * The parameters of an index of resource R: those of {@link IndexParams}, with filters through
 * its belongs-to relations (`'author.country'`).
 *
 * @example
 * ```ts
 * const params: ResourceIndexParams<typeof books> = { filter: { year: { gte: 2000 }, 'author.country': 'UK' } };
 * ```
 */
export type ResourceIndexParams<R extends ResourceLike> = Omit<IndexParams<ModelOf<R>>, 'filter'> & {
  filter?: ResourceFilter<R>;
};

/**
 * `index` of a client of resource R with records T: `include` adds the relations it names,
 * `fields` narrows each record to `id` and the fields it names.
 *
 * @example
 * ```ts
 * const { records } = await books.index({ include: ['author'], fields: ['title'] }); // records[0].author, .title
 * ```
 */
export type IndexMethod<R extends ResourceLike, T> = <const I extends Names<R> = [], const F extends Fields<R> = []>(
  params?: ResourceIndexParams<R> & IncludeOption<I> & FieldsOption<F>,
  options?: CallOptions,
) => Promise<IndexResult<WithIncluded<WithFields<T, F>, R, I>>>;

/**
 * `each` of a client of resource R with records T: `include` adds the relations it names,
 * `fields` narrows each record to `id` and the fields it names.
 *
 * @example
 * ```ts
 * for await (const book of books.each({ include: ['reviews'] })) console.log(book.reviews.length);
 * ```
 */
export type EachMethod<R extends ResourceLike, T> = <const I extends Names<R> = [], const F extends Fields<R> = []>(
  params?: ResourceIndexParams<R> & IncludeOption<I> & FieldsOption<F>,
  options?: CallOptions,
) => AsyncIterable<WithIncluded<WithFields<T, F>, R, I>>;

/**
 * `show` of a client of resource R with records T and call options O: `include` adds the
 * relations it names, `fields` narrows the record to `id` and the fields it names.
 *
 * @example
 * ```ts
 * const book = await books.show(7, { include: ['author', 'reviews'] }); // book.author, book.reviews
 * ```
 */
export type ShowMethod<R extends ResourceLike, T, O> = <const I extends Names<R> = [], const F extends Fields<R> = []>(
  id: IdOfResource<R>,
  options?: O & IncludeOption<I> & FieldsOption<F>,
) => Promise<WithIncluded<WithFields<T, F>, R, I>>;
