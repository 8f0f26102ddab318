import type { ActionName } from '../contract/actions.js';
import type { ActionContext, ContextOf, Done } from './context-types.js';

// The hooks a resource (or a whole API) runs around its actions.

/** A before or after hook. Throw an `HttpError` to answer with a problem. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook is any function, `async` ones (Promise<void>) included
export type Hook<C = ActionContext> = (ctx: C) => void | Done | Promise<void | Done>;

/**
 * A hook around the whole action: it lets the action run by calling `next()`, and resolves to
 * what `next()` resolved to (or to `ctx.respond(...)`), so that forgetting `next()` is a type error.
 */
export type AroundHook<C = ActionContext> = (ctx: C, next: () => Promise<Done>) => Promise<Done>;

/**
 * Receives what an action threw, before it becomes a problem+json answer. Throw another error
 * to replace it (a domain error becoming an `HttpError`), call `ctx.respond()` to answer with
 * a body of your own, or return to let it pass.
 */
export type ErrorHook<C = ActionContext> = (error: unknown, ctx: C) => void | Promise<void>;

/** One hook or several, run in order. */
export type OneOrMore<H> = H | readonly H[];

/** Hooks of one kind for every action (`all`, run first) and for single actions, typed per action. */
export type HookMap<M, S, K extends 'before' | 'after' | 'around'> = {
  all?: OneOrMore<HookOf<K, ActionContext<M, S>>>;
} & { [A in ActionName]?: OneOrMore<HookOf<K, ContextOf<A, M, S>>> };

type HookOf<K, C> = K extends 'around' ? AroundHook<C> : Hook<C>;

/** The hooks of a resource, or of a whole API (`createApi({ hooks })`). */
export interface Hooks<M = Record<string, unknown>, S = Record<string, unknown>> {
  before?: HookMap<M, S, 'before'>;
  after?: HookMap<M, S, 'after'>;
  around?: HookMap<M, S, 'around'>;
  error?: OneOrMore<ErrorHook<ActionContext<M, S>>>;
}
