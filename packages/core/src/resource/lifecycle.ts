import type { NeutralRequest } from '../http/neutral.js';
import { refuseIndexOnly } from '../query/stats-query.js';
import { ACTION_STEPS } from './actions.js';
import type { HooksByAction } from './compile.js';
import type { Context } from './context.js';
import { type ActionContext, DONE } from './context-types.js';
import { admit } from './guard.js';
import { prepareRelatedReads, scopeConditions, unarchived } from './related.js';
import { memberView, tagAnswer } from './render.js';
import { asksArchived } from './restore.js';

/**
 * Runs one action through its whole lifecycle on a prepared context: around hooks, before
 * hooks, the scope step, the action's steps, render, after hooks; a thrown error goes through
 * the error hooks. Leaves the outcome in `ctx.status`, `ctx.headers` and `ctx.result`.
 */
export function runAction(ctx: Context, hooks: HooksByAction, request: NeutralRequest): Promise<void> {
  // The common case (no around or error hooks) adds no async layer of its own.
  const around = hooks.around[ctx.action];
  let run: Promise<void>;
  try {
    admit(ctx); // 401 and 403 before anything else, hooks included
    run = around.length === 0 ? runHooksAndSteps(ctx, hooks, request) : aroundHooks(ctx, hooks, request, 0);
  } catch (error) {
    run = Promise.reject(error);
  }
  return hooks.error.length === 0 ? run : run.catch((error: unknown) => errorHooks(ctx, hooks, error));
}

async function aroundHooks(ctx: Context, hooks: HooksByAction, request: NeutralRequest, index: number): Promise<void> {
  const hook = hooks.around[ctx.action][index];
  if (!hook) return runHooksAndSteps(ctx, hooks, request);
  let called = false;
  const outside = !ctx.inTransaction;
  await hook(ctx as unknown as ActionContext, async () => {
    if (called) throw new Error(`An around hook of ${ctx.resource.name}.${ctx.action} called next() twice`);
    called = true;
    // The hook opened a transaction around the rest of the action (`ctx.transaction(next)`): that
    // rest cannot run again (the body is read, the context changed), so neither may the transaction.
    if (outside && ctx.inTransaction) ctx.sideEffect();
    await aroundHooks(ctx, hooks, request, index + 1);
    return DONE;
  });
  if (!called && !ctx.responded) {
    throw new Error(`An around hook of ${ctx.resource.name}.${ctx.action} neither called next() nor ctx.respond()`);
  }
}

/** Each error hook in turn; one may replace the error (by throwing) or answer (`respond`). */
async function errorHooks(ctx: Context, hooks: HooksByAction, thrown: unknown): Promise<void> {
  let error = thrown;
  for (const hook of hooks.error) {
    try {
      await hook(error, ctx as unknown as ActionContext);
    } catch (replaced) {
      error = replaced;
    }
    if (ctx.responded) return;
  }
  throw error;
}

async function runHooksAndSteps(ctx: Context, hooks: HooksByAction, request: NeutralRequest): Promise<void> {
  await beforeHooks(ctx, hooks);
  if (ctx.responded) return;
  await scope(ctx);
  await ACTION_STEPS[ctx.action](ctx, request);
  if (ctx.responded) return;
  await afterHooks(ctx, hooks);
  if (ctx.action === 'show' && ctx.headers.ETag === undefined && ctx.status === 200) tagAnswer(ctx, request);
}

/** The before hooks of the context's action, in turn, until one answers (`ctx.respond`). */
export async function beforeHooks(ctx: Context, hooks: HooksByAction): Promise<void> {
  const view = ctx as unknown as ActionContext;
  for (const hook of hooks.before[ctx.action]) {
    await hook(view);
    if (ctx.responded) return;
  }
}

/** The after hooks of the context's action, in turn. */
export async function afterHooks(ctx: Context, hooks: HooksByAction): Promise<void> {
  const view = ctx as unknown as ActionContext;
  for (const hook of hooks.after[ctx.action]) await hook(view);
}

/**
 * The conditions every store call of the request adds (`ctx.where`): the records the caller may
 * read (access), not archived (unless a show, an index, statistics or an update ask for
 * `archived=true`), and the scope step's. An index (and statistics) first find what they may
 * read through the relations their filters name.
 */
export async function scope(ctx: Context): Promise<void> {
  if (ctx.reads.length > 0) ctx.where.push(...ctx.reads);
  const listing = ctx.action === 'index' || ctx.action === 'stats' || ctx.action === 'events';
  // Statistics and live events refuse the index parameters they do not take before anything parses them.
  if (ctx.action === 'stats') void ctx.stats;
  if (ctx.action === 'events') refuseIndexOnly(ctx.request.rawQuery, 'live events');
  if (listing) await prepareRelatedReads(ctx);
  const { archive, steps } = ctx.compiled;
  if (archive) {
    const { action } = ctx;
    const asked = listing
      ? ctx.query.archived
      : action === 'show'
        ? memberView(ctx).archived
        : action === 'update' && asksArchived(ctx);
    if (!asked) ctx.where.push(...unarchived(ctx.compiled));
  }
  if (steps.scoped) ctx.where.push(...scopeConditions(await steps.scope(ctx)));
}
