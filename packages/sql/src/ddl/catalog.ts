import type { CollectionSchema, ForeignKey } from '@resourcery/core/store';
import { storedSchemas } from './join-copies.js';
import { checkName, foreignKeyName, uniqueName } from './names.js';

// The order of creation is the core's, so that the SQL stores and `createApi` refuse the same cycles.
export { referencedFirst } from '@resourcery/core/store';

/** A foreign key of another collection that refers to a collection. */
export interface Reference {
  /** The referring collection (its schema). */
  readonly from: CollectionSchema;
  readonly key: ForeignKey;
}

/** What the store makes of a named constraint of one of its tables. */
export interface NamedConstraint {
  readonly kind: 'unique' | 'foreign_key' | 'check';
  /** The field a violation is reported on: the last of a unique set, the foreign key's or CHECK's own. */
  readonly field: string;
  /** The collection (schema name) whose table has the constraint. */
  readonly collection: string;
}

/**
 * Every collection a store has seen (in `init` and `collection`): the referring collections of a
 * destroyed record, and the names of every unique set, foreign key and CHECK of every table, so that a
 * driver's error naming a constraint tells the field or the relation.
 *
 * @example
 * ```ts
 * const catalog = new StoreCatalog('api_');
 * catalog.add(authors).add(books);
 * catalog.referencesTo('authors'); // [{ from: books, key: { field: 'authorId', … } }]
 * ```
 */
export class StoreCatalog {
  /** Each collection's schema as it was given. */
  readonly #declared = new Map<string, CollectionSchema>();
  /** Each collection's schema as the store keeps it: a join collection with its owner's copies (join-copies.ts). */
  #schemas = new Map<string, CollectionSchema>();
  readonly #constraints = new Map<string, NamedConstraint>();
  #references = new Map<string, Reference[]>();
  /** Changes whenever a schema is added, so that plans built from the catalog know they are stale. */
  version = 0;

  constructor(readonly tablePrefix: string) {}

  /** The table of a collection. */
  table(collection: string): string {
    return `${this.tablePrefix}${collection}`;
  }

  /** Learns (or relearns) a collection's schema. */
  add(schema: CollectionSchema): this {
    if (this.#declared.get(schema.name) === schema) return this;
    this.#declared.set(schema.name, schema);
    this.#schemas = new Map(storedSchemas([...this.#declared.values()]).map((stored) => [stored.name, stored]));
    const table = this.table(schema.name);
    for (const set of schema.unique ?? []) {
      const field = set[set.length - 1];
      if (field) this.#constraints.set(uniqueName(table, set), { kind: 'unique', field, collection: schema.name });
    }
    for (const key of schema.references ?? []) {
      const name = foreignKeyName(table, key.field);
      this.#constraints.set(name, { kind: 'foreign_key', field: key.field, collection: schema.name });
    }
    for (const attribute of schema.attributes) {
      if (!attribute.values) continue;
      const name = checkName(table, attribute.name);
      this.#constraints.set(name, { kind: 'check', field: attribute.name, collection: schema.name });
    }
    this.#references = new Map();
    for (const from of this.#schemas.values()) {
      for (const key of from.references ?? []) {
        const list = this.#references.get(key.collection) ?? [];
        list.push({ from, key });
        this.#references.set(key.collection, list);
      }
    }
    this.version++;
    return this;
  }

  /**
   * The schema of a known collection as the store keeps its table (relation filters read the
   * columns of another collection; a join collection has its owner's copies, join-copies.ts).
   */
  schema(collection: string): CollectionSchema | undefined {
    return this.#schemas.get(collection);
  }

  /** Every known collection's schema. */
  schemas(): IterableIterator<CollectionSchema> {
    return this.#schemas.values();
  }

  /** The foreign keys of every known collection that refer to `collection`. */
  referencesTo(collection: string): readonly Reference[] {
    return this.#references.get(collection) ?? [];
  }

  /** The constraint of this name on one of the store's tables, if the store made it. */
  constraint(name: string | undefined): NamedConstraint | undefined {
    return name === undefined ? undefined : this.#constraints.get(name);
  }
}
