import type { NeutralRequest } from '../http/neutral.js';
import type { StoredRecord } from '../store/store.js';
import { answerCreated, prepareCreate } from './actions.js';
import { answeredEntry, atRecord, entryObject, Failures, recordRequest, runRecord } from './bulk-records.js';
import { lookUpReferences } from './bulk-references.js';
import { uniqueInBatch } from './bulk-unique.js';
import type { HooksByAction } from './compile.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';
import { admit } from './guard.js';
import { afterHooks, beforeHooks, scope } from './lifecycle.js';

type Rec = RecordOf<Record<string, unknown>>;

/**
 * Creates each entry of a bulk `POST` through the create's lifecycle. When the store makes the
 * records (no `create` step, no `around` hook), every record is checked and prepared first, then
 * all are written with one `createMany` (one multi-row `INSERT` on the SQL stores), then each is
 * rendered and goes through its after hooks; otherwise each record runs its whole lifecycle in turn.
 *
 * @example
 * ```ts
 * await ctx.transaction(() => createRecords(ctx, hooks, request, [{ title: 'A' }, { title: 'B' }]));
 * ```
 */
export async function createRecords(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  entries: readonly unknown[],
): Promise<unknown[]> {
  const failures = new Failures(ctx);
  const { name, path } = ctx.resource;
  const sent = entries.map((entry, index) => {
    const object = entryObject(ctx, entry, index, failures);
    return object && recordRequest(request, 'POST', `/${path}`, { [name]: object });
  });
  failures.throwIfAny();
  const requests = sent as NeutralRequest[];
  const records = requests.map((one) => ctx.forRecord('create', 0, one));
  const batched = ctx.compiled.steps.createsInStore && hooks.around.create.length === 0;
  if (!batched) {
    const answers: unknown[] = [];
    for (const [index, record] of records.entries()) {
      try {
        answers.push(await runRecord(record, hooks, requests[index] as NeutralRequest));
      } catch (error) {
        failures.add(index, error);
      }
    }
    failures.throwIfAny();
    return answers;
  }
  // The records' foreign keys looked up once per relation, unless a before hook runs first (it may change what they name).
  if (hooks.before.create.length === 0) await lookUpReferences(ctx, entries as Record<string, unknown>[]);
  // Every record up to its write: its before hooks, scope, and body checked and prepared.
  for (const [index, record] of records.entries()) {
    try {
      admit(record);
      await beforeHooks(record, hooks);
      if (record.responded) continue;
      await scope(record);
      await prepareCreate(record, requests[index] as NeutralRequest);
    } catch (error) {
      failures.add(index, error);
    }
  }
  failures.throwIfAny();
  const writing = records.filter((record) => !record.responded);
  const written = await writeAll(ctx, writing).catch((error: unknown) => {
    throw uniqueInBatch(
      ctx,
      error,
      records.map((record) => (record.responded ? undefined : record.input)),
    );
  });
  const answers: unknown[] = [];
  for (const [index, record] of records.entries()) {
    if (record.responded) {
      answers.push(answeredEntry(record));
      continue;
    }
    try {
      await answerCreated(record, requests[index] as NeutralRequest, written.get(record) as Rec);
      await afterHooks(record, hooks);
      answers.push((record.result as Record<string, unknown>)[name]);
    } catch (error) {
      throw atRecord(ctx, index, error);
    }
  }
  return answers;
}

/** The records' prepared inputs written at once (`createMany`), or one by one when the store cannot. */
async function writeAll(ctx: Context, records: readonly Context[]): Promise<Map<Context, Rec>> {
  const written = new Map<Context, Rec>();
  const { collection } = ctx;
  if (collection.createMany) {
    const inputs = records.map((record) => record.input as Partial<StoredRecord>);
    const created = records.length === 0 ? [] : await collection.createMany(inputs);
    for (const [index, record] of records.entries()) written.set(record, created[index] as Rec);
    return written;
  }
  for (const record of records)
    written.set(record, (await collection.create(record.input as Partial<StoredRecord>)) as Rec);
  return written;
}
