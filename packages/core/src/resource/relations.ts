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

/** A relation of a resource. */
export type Relation<T = unknown> = BelongsTo<T> | HasMany<T>;

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

/** Whether a relation target is a model class (a class has a prototype; an arrow function has none). */
export function isModelTarget<T>(target: RelationTarget<T>): target is ModelClass<T> {
  return typeof target === 'function' && target.prototype !== undefined;
}
