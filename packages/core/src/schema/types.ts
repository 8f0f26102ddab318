/** Value types an attribute can hold. */
export type AttributeType = 'integer' | 'number' | 'string' | 'boolean';

/** A stored value. `null` stands for "no value" in every store. */
export type Scalar = string | number | boolean | null;

/** One attribute of a collection, as stores see it. */
export interface AttributeSchema {
  readonly name: string;
  readonly type: AttributeType;
  /** Whether the attribute may be `null` (absent on create). */
  readonly nullable: boolean;
  /** Maximum string length, when the model declares one (stores may size columns by it). */
  readonly maxLength?: number;
}

/** What a store knows about one resource's records. */
export interface CollectionSchema {
  /** Table / collection name, e.g. `books`. */
  readonly name: string;
  /** Every attribute, `id` first. */
  readonly attributes: readonly AttributeSchema[];
  /** Attributes that are filtered or sorted on (stores may index them). */
  readonly indexed: readonly string[];
}
