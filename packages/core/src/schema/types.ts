/**
 * Value types an attribute can hold. Every store answers the same JSON for each (CONTRACT
 * part 3): `date-time` an RFC 3339 string in UTC with milliseconds (`2024-05-01T12:00:00.000Z`),
 * `date` a `YYYY-MM-DD` string, `decimal` a string with exactly the declared places (`"12.50"`),
 * `uuid` a lowercase canonical string, `json` a JSON object.
 */
export type AttributeType =
  | 'integer'
  | 'number'
  | 'string'
  | 'boolean'
  | 'date-time'
  | 'date'
  | 'decimal'
  | 'uuid'
  | 'json';

/** A stored value other than JSON: `null` stands for "no value" in every store. */
export type Scalar = string | number | boolean | null;

/** The value of a `json` attribute: a JSON object. */
export type JsonObject = { [key: string]: unknown };

/** Any value a record holds. */
export type StoredValue = Scalar | JsonObject;

/** A record id: a store-assigned integer, or a server-assigned uuid (lowercase). */
export type Id = number | string;

/** One attribute of a collection, as stores see it. */
export interface AttributeSchema {
  readonly name: string;
  readonly type: AttributeType;
  /** Whether the attribute may be `null` (absent on create). */
  readonly nullable: boolean;
  /** Maximum string length in code points, when the model declares one (stores may size columns by it). */
  readonly maxLength?: number;
  /** `decimal`: the digits after the point (every value has exactly this many). */
  readonly scale?: number;
  /** `decimal`: the most digits in all (at most 15, so that every store holds them exactly). */
  readonly precision?: number;
  /** The value a create that leaves the attribute out gets (also the column's SQL `DEFAULT`). */
  readonly default?: Scalar;
  /**
   * A `date-time` the store sets itself (see `serverValues`): `'create'`, the time of the create
   * (`createdAt`); `'update'`, the time of the create and of every update that changes something
   * (`updatedAt`). A value the write gives is kept.
   */
  readonly timestamp?: 'create' | 'update';
  /**
   * The only values the attribute may hold (`@IsIn([...])`, `@IsEnum(E)`), `null` aside (nullability
   * says whether it may be `null`). Stores refuse any other value with a `check`
   * `ConstraintViolation` (the SQL stores by a `CHECK (<column> IN (…))` named `<table>_<field>_check`).
   */
  readonly values?: readonly Scalar[];
}

/** What happens to the records referring to a record that is destroyed. */
export type OnDelete = 'restrict' | 'cascade' | 'nullify';

/** A foreign key: `field` holds the id of a record of `collection` (another collection's `name`). */
export interface ForeignKey {
  readonly field: string;
  readonly collection: string;
  /** `restrict` (the default): the destroy fails; `cascade`: these records go too; `nullify`: `field` becomes `null`. */
  readonly onDelete: OnDelete;
}

/** One key of an index: an attribute, in ascending or descending order. */
export interface IndexKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/**
 * A set of ids a record holds through a join collection (a many-to-many relation): the record's
 * `field` is the ascending list of the `value`s of the records of `through` whose `key` is the
 * record's id (`labelIds` of an issue: the `labelId`s of the `issue_labels` whose `issueId` is
 * the id). Stores answer `field` on every record they return (`[]` when there is none)
 * and, when a create or update gives it (an array of distinct ids), replace the join records in
 * the same atomic step as the record's own write.
 */
export interface IdSet {
  readonly field: string;
  /** The join collection's name; its schema is given to the store as any other. */
  readonly through: string;
  /** The join collection's attribute holding this record's id. */
  readonly key: string;
  /** The join collection's attribute holding the other record's id. */
  readonly value: string;
}

/** What a store knows about one resource's records. */
export interface CollectionSchema {
  /** Table / collection name, e.g. `books`. */
  readonly name: string;
  /** Every attribute, `id` first (its type is `integer` or `uuid`). */
  readonly attributes: readonly AttributeSchema[];
  /**
   * Attributes that are filtered or sorted on and short enough to index whole (stores may index
   * each as `(field, id)`): no JSON, and no string that may be longer than 500 characters.
   */
  readonly indexed: readonly string[];
  /**
   * Indexes the resource declares, each its keys in order: `indexes: [['authorId', '-year', 'id']]`
   * is `[[{ field: 'authorId', direction: 'asc' }, { field: 'year', direction: 'desc' }, …]]`.
   * Stores may create them (the SQL stores do; the memory store needs none).
   */
  readonly indexes?: readonly (readonly IndexKey[])[];
  /**
   * Sets of attributes whose values no two records share (`[['isbn'], ['authorId', 'title']]`).
   * A set with a `null` among its values never collides, as in SQL.
   */
  readonly unique?: readonly (readonly string[])[];
  /**
   * String attributes that `q=` searches (a condition's `search` names some of them):
   * stores may keep an index of their words (the SQL stores do, see docs/search.md).
   */
  readonly search?: readonly string[];
  /** Attributes holding the id of another collection's record, checked by the store. */
  readonly references?: readonly ForeignKey[];
  /** Sets of ids the records hold through join collections (many-to-many relations). */
  readonly sets?: readonly IdSet[];
  /**
   * The tenant's attribute (the API's `tenancy`), which every read of the API names with one value:
   * stores may begin their indexes with it, `(orgId, status, id)` rather than `(status, id)` (the
   * SQL stores do).
   */
  readonly tenant?: string;
  /**
   * The attribute whose `null` marks a record that is not archived (the resource's `archive`), which
   * every read names unless it asks for archived records: stores may index the tenant's records
   * that are not archived apart (the SQL store does on PostgreSQL, in a partial index).
   */
  readonly archive?: string;
  /**
   * The store may keep the number of records of each tenant that are not archived (the resource's
   * `keepCount`), and answer from it the count of a list whose conditions are exactly the tenant's
   * and the archive's; and, per related record, the number of its join tables' rows, for a list
   * filtered by one related record (the SQL store does both on PostgreSQL, see docs/stores.md).
   */
  readonly keepCount?: boolean;
  /**
   * The collection serves live events: the store logs each committed change of its records,
   * before and after, in its change log (`store.changes()`).
   */
  readonly live?: boolean;
}
