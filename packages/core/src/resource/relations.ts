import type { ModelClass } from '../schema/infer-attributes.js';
import type { OnDelete } from '../schema/types.js';
import type { Resource } from './options.js';

/**
 * The other side of a relation: the related model's class (its resource is the one serving that
 * model in the same API), or an arrow function answering the resource itself, for a model that
 * several resources serve.
 */
// biome-ignore lint/suspicious/noExplicitAny: a resource of any state
export type RelationTarget<T> = ModelClass<T> | (() => Resource<T, any>);

/** A belongs-to relation: this resource's `foreignKey` holds the id of a record of the target. */
export interface BelongsTo<T = unknown> {
  readonly kind: 'belongsTo';
  readonly target: RelationTarget<T>;
  readonly foreignKey: string;
  /** What destroying the target record does to the records referring to it. Default `restrict` (409). */
  readonly onDelete?: OnDelete;
}

/** A has-many relation: the target's `foreignKey` holds the id of a record of this resource. */
export interface HasMany<T = unknown> {
  readonly kind: 'hasMany';
  readonly target: RelationTarget<T>;
  readonly foreignKey: string;
  /** Most related records `include` adds to one record (ordered by id). Default 100. */
  readonly limit: number;
  /** As on {@link BelongsTo}, when the other side does not declare it. */
  readonly onDelete?: OnDelete;
}

/**
 * A many-to-many relation: each record holds, in `ids`, the ascending ids of the records of the
 * target it is linked to, kept by the library in a join collection (`through`).
 */
export interface ManyToMany<T = unknown, K extends string = string> {
  readonly kind: 'manyToMany';
  readonly target: RelationTarget<T>;
  /** The field of the records holding the ids (`labelIds`): not an attribute of the model's table. */
  readonly ids: K;
  /** The join collection's name; default `<resource name>_<relation name>` (`issue_labels`). */
  readonly through?: string;
  /** Most ids one record may hold (a write sending more is a 422). Default 50. */
  readonly limit: number;
}

/** A relation of a resource. */
export type Relation<T = unknown> = BelongsTo<T> | HasMany<T> | ManyToMany<T>;

const RULES = new Set<OnDelete>(['restrict', 'cascade', 'nullify']);

function checkedRule(onDelete: OnDelete | undefined): OnDelete | undefined {
  if (onDelete !== undefined && !RULES.has(onDelete)) {
    throw new TypeError(`onDelete must be restrict, cascade or nullify (got ${JSON.stringify(onDelete)})`);
  }
  return onDelete;
}

/**
 * Declares that each record refers to one record of `target` through `foreignKey`. The key is
 * checked on every write (a value naming no record is a 422 `does not exist`), the store keeps a
 * real foreign key, and destroying the target answers 409 unless `onDelete` says `cascade`
 * (destroy these records too) or `nullify` (set the key to `null`).
 *
 * @example
 * ```ts
 * defineResource({ name: 'book', model: Book, relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) } });
 * ```
 */
export function belongsTo<T>(
  target: RelationTarget<T>,
  options: { foreignKey: string; onDelete?: OnDelete },
): BelongsTo<T> {
  return { kind: 'belongsTo', target, foreignKey: options.foreignKey, onDelete: checkedRule(options.onDelete) };
}

/**
 * Declares that records of `target` refer to this one through their `foreignKey`:
 * `include=books` adds them (ordered by id, at most `limit`).
 *
 * @example
 * ```ts
 * defineResource({ name: 'author', model: Author, relations: { books: hasMany(Book, { foreignKey: 'authorId' }) } });
 * ```
 */
export function hasMany<T>(
  target: RelationTarget<T>,
  options: { foreignKey: string; limit?: number; onDelete?: OnDelete },
): HasMany<T> {
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`hasMany: limit must be a positive integer`);
  return { kind: 'hasMany', target, foreignKey: options.foreignKey, limit, onDelete: checkedRule(options.onDelete) };
}

/**
 * Declares that each record is linked to any number of records of `target`, held as their
 * ascending ids in the field `ids` (`labelIds`). Writes send the whole set (`[]` clears it; a
 * repeated id counts once; at most `limit`), each id checked like a belongs-to's foreign key;
 * `include=labels` adds the records; `filter[labels.name]=bug` keeps the records linked to one
 * that matches. The library keeps the links in a join collection, `<resource>_<relation>`
 * (`issue_labels`, with the store's table prefix) unless `through` names it, whose two foreign
 * keys cascade: destroying either side removes its links.
 *
 * @example
 * ```ts
 * defineResource({ name: 'issue', model: Issue, relations: { labels: manyToMany(Label, { ids: 'labelIds' }) } });
 * ```
 */
export function manyToMany<T, const K extends string>(
  target: RelationTarget<T>,
  options: { ids: K; through?: string; limit?: number },
): ManyToMany<T, K> {
  const limit = options.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`manyToMany: limit must be a positive integer`);
  if (typeof options.ids !== 'string' || options.ids === '') throw new TypeError('manyToMany: ids names a field');
  return {
    kind: 'manyToMany',
    target,
    ids: options.ids,
    limit,
    ...(options.through === undefined ? {} : { through: options.through }),
  };
}

/** Whether a relation target is a model class (a class has a prototype; an arrow function has none). */
export function isModelTarget<T>(target: RelationTarget<T>): target is ModelClass<T> {
  return typeof target === 'function' && target.prototype !== undefined;
}

/**
 * The fields holding the ids of each many-to-many relation (`labelIds`), with the relation's
 * name and the most ids a record holds; throws when a relation or one of these fields has the
 * name of a decorated field, or a field is taken twice.
 *
 * @example
 * ```ts
 * idSetsOf('issue', { labels: manyToMany(Label, { ids: 'labelIds' }) }, attributes); // Map { 'labelIds' => { relation: 'labels', limit: 50 } }
 * ```
 */
export function idSetsOf(
  resource: string,
  relations: Readonly<Record<string, Relation>>,
  attributes: ReadonlyMap<string, unknown>,
): Map<string, { relation: string; limit: number }> {
  const idSets = new Map<string, { relation: string; limit: number }>();
  for (const [name, relation] of Object.entries(relations)) {
    if (attributes.has(name))
      throw new TypeError(`defineResource(${resource}): relation "${name}" has the name of a field`);
    if (relation.kind !== 'manyToMany') continue;
    if (attributes.has(relation.ids) || idSets.has(relation.ids) || relation.ids === name) {
      throw new TypeError(
        `defineResource(${resource}): relation ${name} holds its ids in "${relation.ids}", which must be a name of its own (not a decorated field)`,
      );
    }
    idSets.set(relation.ids, { relation: name, limit: relation.limit });
  }
  return idSets;
}
