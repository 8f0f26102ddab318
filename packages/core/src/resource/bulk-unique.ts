import { ValidationError } from '../errors/http-error.js';
import type { Scalar } from '../schema/types.js';
import { ConstraintViolation } from '../store/store-errors.js';
import { pointer } from './bulk-records.js';
import type { Context } from './context.js';
import { storeCollection } from './primary-reads.js';

// Which records of a bulk create took a unique value: one multi-row INSERT that breaks a unique
// set fails as a whole, and the database does not say which row did. The records that repeat an
// earlier one's values are found in the batch itself; those that take a stored record's values
// are looked up once the batch's transaction has rolled back (a failed statement may have
// aborted it), and each is answered as a single create would be: `is already taken` on the field.

/** A bulk create that broke a unique set: the set, and the values each record gave it. */
export class TakenInBatch extends Error {
  constructor(
    readonly violation: ConstraintViolation,
    readonly members: readonly string[],
    readonly given: readonly { readonly index: number; readonly values: readonly Scalar[] }[],
  ) {
    super(violation.message, { cause: violation });
  }
}

/**
 * What a unique violation of a bulk create means: the 422 of the records that repeat an earlier
 * record of the batch, else a {@link TakenInBatch} for {@link takenRecords} to look up after
 * the rollback. Any other error is answered as it is.
 *
 * @example
 * ```ts
 * throw uniqueInBatch(ctx, error, records.map((record) => record.input));
 * ```
 */
export function uniqueInBatch(ctx: Context, error: unknown, inputs: readonly (object | undefined)[]): unknown {
  if (!(error instanceof ConstraintViolation && error.kind === 'unique' && error.field)) return error;
  const field = error.field;
  const sets = ctx.mounted?.self.schema.unique ?? ctx.compiled.schema.unique ?? [];
  const members = sets.find((set) => set.includes(field)) ?? [field];
  const given = inputs.map((input, index) => {
    const values = members.map((member) => ((input as Record<string, Scalar> | undefined)?.[member] ?? null) as Scalar);
    return { index, values };
  });
  const first = new Map<string, number>();
  const errors: Record<string, string[]> = {};
  for (const { index, values } of given) {
    if (values.includes(null)) continue; // nulls never collide
    const key = JSON.stringify(values);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else errors[pointer(ctx, index, field)] = [`is already taken (by ${pointer(ctx, earlier)})`];
  }
  if (Object.keys(errors).length > 0) return new ValidationError(errors);
  return new TakenInBatch(error, members, given);
}

/**
 * The 422 of the records of a failed bulk create whose unique values a stored record holds
 * (`/tags/3/name: is already taken`), looked up outside the rolled-back transaction; the
 * violation itself when none is found (a concurrent write took the value and went away).
 *
 * @example
 * ```ts
 * if (error instanceof TakenInBatch) throw await takenRecords(ctx, error);
 * ```
 */
export async function takenRecords(ctx: Context, taken: TakenInBatch): Promise<unknown> {
  const { members, given, violation } = taken;
  const self = ctx.mounted?.self;
  const collection = self ? storeCollection(ctx, self) : ctx.collection;
  const candidates = given.filter(({ values }) => !values.includes(null));
  const { records } = await collection.list({
    where: members.map((member, at) => ({
      field: member,
      values: [...new Set(candidates.map((c) => c.values[at] as Scalar))],
    })),
    order: [{ field: 'id', direction: 'asc' }],
    limit: 10_000, // at most `bulk.max` records, each matching at most one stored one
    offset: 0,
    count: false,
    select: [...members],
  });
  const stored = new Set(records.map((record) => JSON.stringify(members.map((member) => record[member] ?? null))));
  const errors: Record<string, string[]> = {};
  for (const { index, values } of candidates) {
    if (stored.has(JSON.stringify(values)))
      errors[pointer(ctx, index, violation.field as string)] = ['is already taken'];
  }
  return Object.keys(errors).length > 0 ? new ValidationError(errors) : violation;
}
