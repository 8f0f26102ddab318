import {
  context,
  type Context as OtelContext,
  ProxyTracerProvider,
  type Span,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Context } from '../resource/context.js';
import type { Collection } from '../store/store.js';

/**
 * What `createApi({ tracing })` takes: unset (or `true`), whatever provider is registered
 * globally, when it is an SDK's; `false`, none; a provider, that one.
 *
 * @example
 * ```ts
 * const tracing: TracingOption = process.env.TRACE_API === '0' ? false : new BasicTracerProvider();
 * ```
 */
export type TracingOption = boolean | TracerProvider;

const NAME = '@resourcery/core';
/** The API's no-op provider: the delegate of a global provider no SDK has been given. */
const NOOP = new ProxyTracerProvider().getDelegate();

/**
 * The tracer of each request, read when it starts: `undefined` when nothing would record its
 * spans, so that an untraced request makes no span, wraps no collection and enters no context.
 * Unset, it follows the global provider, which an SDK may register after `createApi`: a couple
 * of property reads per request, the tracer being remade only when the provider changes.
 */
export function requestTracer(option: TracingOption | undefined): (() => Tracer | undefined) | undefined {
  if (option === false) return undefined;
  if (typeof option === 'object') {
    const tracer = option.getTracer(NAME);
    return () => tracer;
  }
  let seen: TracerProvider | undefined;
  let tracer: Tracer | undefined;
  return () => {
    const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
    // The global provider is a proxy; an SDK registered through the API is its delegate.
    const provider = global.getDelegate?.() ?? global;
    if (provider !== seen) {
      seen = provider;
      tracer = isNoop(provider) ? undefined : provider.getTracer(NAME);
    }
    return tracer;
  };
}

/** The no-op provider, also from another copy of `@opentelemetry/api`. */
function isNoop(provider: TracerProvider): boolean {
  return provider === NOOP || provider.constructor?.name === 'NoopTracerProvider';
}

/**
 * Starts the span `<resource>.<action>` of a request (child of whatever span is active) and
 * makes every collection the context hands out (`ctx.collection`, those of `ctx.transaction`
 * and `ctx.collectionOf`, so the queries of `include` too) make a child span per store call,
 * when the span is recorded (not dropped by the SDK's sampler).
 */
export function traceAction(ctx: Context, tracer: Tracer, resource: string): Span {
  const span = tracer.startSpan(`${resource}.${ctx.action}`, {
    attributes: { 'resourcery.resource': resource, 'resourcery.action': ctx.action },
  });
  // A span the sampler dropped would only have dropped children: the store is left unwrapped.
  if (!span.isRecording()) return span;
  const parent = trace.setSpan(context.active(), span);
  ctx.wrapCollection = (collection, name) => tracedCollection(collection, tracer, parent, name);
  ctx.collection = ctx.wrapCollection(ctx.collection, resource);
  return span;
}

/**
 * Runs the action with its span active, so that spans made meanwhile (a database driver's
 * instrumentation, your hooks') are its children where the SDK has a context manager.
 */
export function inSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  return context.with(trace.setSpan(context.active(), span), work);
}

/** Ends an action's span with the response status (and the error of a server fault). */
export function endActionSpan(span: Span, status: number, error?: unknown): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

type Operation = 'list' | 'find' | 'create' | 'createMany' | 'update' | 'destroy' | 'aggregate';

/** How many rows a store call answered. */
function rowsOf(operation: Operation, result: unknown): number {
  if (operation === 'list') return (result as { records: unknown[] }).records.length;
  if (operation === 'aggregate' || operation === 'createMany') return (result as unknown[]).length;
  if (operation === 'destroy') return result ? 1 : 0;
  return result === undefined ? 0 : 1;
}

/**
 * The collection with a child span of `parent` around each store call (list, find, create,
 * createMany, update, destroy, aggregate), named `<resource>.store.<operation>`: attributes resource, operation and
 * rows. The collection its `transaction` hands over is traced too. The parent is passed
 * explicitly, so no context manager (Node's `AsyncLocalStorage`) is needed.
 */
export function tracedCollection(
  collection: Collection,
  tracer: Tracer,
  parent: OtelContext,
  resource: string,
): Collection {
  const traced =
    (operation: Operation) =>
    async (...args: unknown[]): Promise<unknown> => {
      const span = tracer.startSpan(
        `${resource}.store.${operation}`,
        { attributes: { 'resourcery.resource': resource, 'resourcery.operation': operation } },
        parent,
      );
      try {
        const result = await (collection[operation] as (...a: unknown[]) => Promise<unknown>)(...args);
        span.setAttribute('resourcery.rows', rowsOf(operation, result));
        return result;
      } catch (error) {
        if (error instanceof Error) span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    };
  return {
    schema: collection.schema,
    transaction: (work) => collection.transaction((inner) => work(tracedCollection(inner, tracer, parent, resource))),
    list: traced('list'),
    find: traced('find'),
    create: traced('create'),
    update: traced('update'),
    destroy: traced('destroy'),
    ...(collection.aggregate ? { aggregate: traced('aggregate') } : {}),
    ...(collection.createMany ? { createMany: traced('createMany') } : {}),
  } as Collection;
}
