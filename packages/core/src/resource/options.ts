import type { AccessRules } from '../access/declare.js';
import type { ActionName } from '../contract/actions.js';
import type { Limits } from '../contract/limits.js';
import type { Operator } from '../contract/operators.js';
import type { ModelClass, TypeDeclaration } from '../schema/infer-attributes.js';
import type { Scalar } from '../schema/types.js';
import type { Store } from '../store/store.js';
import type { FieldOf } from './context-types.js';
import type { Hooks } from './hooks.js';
import type { Relation } from './relations.js';
import type { StatsDeclaration } from './stats.js';
import type { Steps } from './step-types.js';

export type { Listed, Steps } from './step-types.js';

/** The relations of a resource, by the name `include=` uses. */
// biome-ignore lint/suspicious/noExplicitAny: relations to models of any type
export type Relations = Readonly<Record<string, Relation<any>>>;

/** Per-action field allow-lists. Every list defaults to all the model's attributes. */
export interface FieldRules<M> {
  /** What create may set. */
  create?: readonly (keyof M & string)[];
  /** What update may change. */
  update?: readonly (keyof M & string)[];
  /** What responses show (`id` is always shown). */
  show?: readonly (keyof M & string)[];
  /** What `filter[...]` may use. */
  filter?: readonly FieldOf<M>[];
  /** What `sort` may use. */
  sort?: readonly FieldOf<M>[];
  /**
   * The operators `filter[attr][op]` allows per attribute; default by type (`operatorsFor`):
   * `{ title: ['eq', 'prefix'] }` keeps a big table's text filters index-friendly.
   */
  operators?: { [K in FieldOf<M>]?: readonly Operator[] };
  /** Fields the client may never send (422), such as fields computed on the server. `id` always is. */
  readOnly?: readonly (keyof M & string)[];
}

/**
 * The declaration of a resource.
 *
 * @example
 * ```ts
 * defineResource({ name: 'book', model: Book, perPage: { default: 10, max: 50 } });
 * ```
 */
export interface ResourceOptions<M, S, R extends Relations = Relations> {
  /** Singular name: the key of one record in bodies (`book`). */
  name: string;
  /** Plural name: the key of lists and the path segment (`books`); derived from `name` by default. */
  plural?: string;
  /** Path segment, when it differs from the plural. */
  path?: string;
  /** The class whose class-validator decorators describe the fields. */
  model: ModelClass<M>;
  /**
   * Attribute types that cannot be inferred from the decorators, e.g. `{ born: 'date' }` or
   * `{ price: { type: 'decimal', scale: 2 } }`.
   */
  types?: { [K in keyof M]?: TypeDeclaration };
  /**
   * `uuid`: ids are uuids the server assigns (lowercase), instead of integers the store assigns.
   * Also set by declaring `@IsUUID() id` in the model. Default `integer`.
   */
  id?: 'integer' | 'uuid';
  /**
   * Adds `createdAt` and `updatedAt` (date-time), set by the server and read-only for clients;
   * `{ updatedAt: false }` keeps only `createdAt`. Declare them in the model as
   * `createdAt!: ServerSet<string>` for typed clients to see them.
   */
  timestamps?: boolean | { createdAt?: boolean; updatedAt?: boolean };
  /**
   * Values no two records share: an attribute, or several together (`['isbn', ['authorId', 'title']]`).
   * A taken value is a 422 `is already taken` on the attribute (the last one of a set). `null`s never collide.
   */
  unique?: readonly (FieldOf<M> | readonly FieldOf<M>[])[];
  /**
   * Indexes of several attributes, each its keys in order, `-` for descending:
   * `[['authorId', '-year', 'id']]` serves `filter[authorId]=…&sort=-year` from the index alone.
   * The SQL stores create them (and compare them at start); every filtered or sorted attribute
   * already gets `(attribute, id)` unless it is a string longer than 500 characters.
   */
  indexes?: readonly (readonly (FieldOf<M> | `-${FieldOf<M>}`)[])[];
  /** Values a create that leaves an attribute out gets (the attribute then is not required). */
  defaults?: { [K in keyof M]?: Scalar };
  /** Relations to other resources, by the name `include=` uses: `{ author: belongsTo(Author, { foreignKey: 'authorId' }) }`. */
  relations?: R;
  fields?: FieldRules<M>;
  /**
   * Default order of the index, in `sort` syntax. Default `-id` (newest first), or `-createdAt`
   * for a resource with uuid ids and timestamps.
   */
  defaultSort?: string;
  /**
   * `cursor`: the index pages with opaque, tamper-checked `after` cursors (keyset: deep pages cost
   * what the first does, and walking `next` visits every record once even while records are
   * created); `page` is then refused and the total counted only with `count=true`. Default `page`.
   */
  pagination?: 'page' | 'cursor';
  /** `per_page` default (25) and maximum (100). */
  perPage?: { default?: number; max?: number };
  /** Maximum request body size in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Whether the index counts the matching records (`X-Total-Count`, `last` link). Default true; a request
   * says `count=true|false|estimated`. Without a count, `next` is found by reading one record more than the
   * page. `'estimated'`: exact up to `estimateCountsAbove` matches (default 10,000), then the store's
   * estimate if it makes one (PostgreSQL) as `X-Total-Count-Estimate`, without `last` (docs/query.md).
   */
  count?: boolean | 'estimated';
  estimateCountsAbove?: number;
  /**
   * The store keeps the number of records of each tenant that are not archived as writes commit,
   * so that the count of an index without filters or `q` (the tenant's whole list) costs the
   * same at a thousand records as at a million; and, for each many-to-many relation, the number per
   * related record (the issues of each label), which counts a filter by one of them
   * (`filter[labels.name]=bug`). Off by default: each create, archive, restore and destroy then
   * writes one row more (and one per join table it writes). The SQL store does it on PostgreSQL
   * (counts tables kept by triggers, made by its migrations, see docs/stores.md); the other stores
   * count as always.
   */
  keepCount?: boolean;
  /** Bounds on query strings, filter values, sort keys, JSON depth and the unknown fields a 422 lists (see `Limits`). */
  limits?: Partial<Limits>;
  /** Actions to disable: `{ update: false }` answers 405 (with `Allow`) to `PATCH`. */
  actions?: { [A in ActionName]?: false };
  /**
   * Who may read and change what: per action, per record (row rules compiled into every store
   * query) and per field, with values preset from the principal (see docs/access.md). Enforced
   * on every path that reads, counts, references or changes the records.
   */
  access?: AccessRules<M>;
  /**
   * Archive instead of destroy: the name of a nullable date-time field that `DELETE` sets to the
   * current time (204) instead of removing the record. Archived records then answer 404 and are
   * left out of the index, unless a show or an index asks with `archived=true`.
   */
  archive?: keyof M & string;
  /**
   * Statistics at `GET /<plural>/stats` (grouped counts, sums, minima, maxima over the index's
   * filters): `true` for every attribute that fits, or the attributes each parameter may name.
   * Off by default. See docs/statistics.md.
   */
  stats?: true | StatsDeclaration<M>;
  /**
   * String attributes `q=` searches: `search: ['title', 'body']`; `q=login cra` keeps the records
   * where every word of `q` begins a word of one of them (docs/search.md). A field hidden from a
   * caller is left out of their search; without `search`, `q` is a 400.
   */
  search?: readonly (keyof M & string)[];
  /**
   * Bulk writes (docs/bulk.md): `POST` with the plural key and a list creates 1 to `max` records
   * (default 100), `PATCH` on the collection with a list of partial records (each with its `id`)
   * updates them, `DELETE` on the collection with `filter[id][]` destroys them; all or none, in
   * one transaction, each record through the same rules, steps and hooks as a single write.
   * Off by default. `bulk: { max: 50 }`, then `POST /issues {"issues": [{"title": "A"}, …]}`.
   */
  bulk?: true | { max?: number };
  /**
   * Live events at `GET /<plural>/events` (`text/event-stream`, docs/live.md): each committed
   * change of a record the caller may see, as a show renders it for them, narrowed by the
   * index's filters. Needs a store with a change log (`store.changes`). Off by default.
   */
  live?: boolean;
  /**
   * The unique attributes a create may upsert by (`POST /labels?upsert=name`): the record with
   * that value within the caller's scope is updated (through the update's rules and hooks), else
   * one is created (through the create's, so every required field must be sent). Each names an
   * attribute of `unique` on its own (`unique: ['name'], upsert: ['name']`). Off by default; see docs/bulk.md.
   */
  upsert?: readonly (keyof M & string)[];
  /** Hooks of this resource; the API's own hooks run around them. */
  hooks?: Hooks<M, S>;
  steps?: Partial<Steps<M, S>>;
  /** The store of this resource, when it differs from the API's. */
  store?: Store;
}

/**
 * A defined resource: its normalized declaration. Created by `defineResource`, which keeps the
 * literal `name` (and `plural`, when declared), the relations and the names of the attributes
 * with a default in the type, so that clients can check them.
 */
export interface Resource<
  M = Record<string, unknown>,
  S = Record<string, unknown>,
  N extends string = string,
  P extends string = string,
  R extends Relations = Relations,
  D extends string = never,
> {
  readonly name: N;
  readonly plural: P;
  readonly path: string;
  readonly model: ModelClass<M>;
  readonly options: Readonly<ResourceOptions<M, S, R>>;
  /** The declared relations (empty when none), typed for clients. */
  readonly relations: R;
  /** The declared defaults (empty when none): typed clients let a create leave these attributes out. */
  readonly defaults: Readonly<Record<D, Scalar>>;
}
