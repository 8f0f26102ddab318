import { type Context, context, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { Collection } from '../store/store.js';

/**
 * The tracer of `createApi({ tracing: true })`, from the globally registered provider (an
 * OpenTelemetry SDK's, or the API's no-op one). Tracing is opt-in so that an API without it
 * pays nothing: no span, no wrapper around the store.
 */
export function apiTracer(): Tracer {
  return trace.getTracer('@resourcery/core');
}

/** The span of one action, `<resource>.<action>`, child of whatever span is active. */
export function startActionSpan(tracer: Tracer, resource: string, action: string): Span {
  return tracer.startSpan(`${resource}.${action}`, {
    attributes: { 'resourcery.resource': resource, 'resourcery.action': action },
  });
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

type Operation = 'list' | 'find' | 'create' | 'update' | 'destroy';

/** How many rows a store call answered. */
function rowsOf(operation: Operation, result: unknown): number {
  if (operation === 'list') return (result as { records: unknown[] }).records.length;
  if (operation === 'destroy') return result ? 1 : 0;
  return result === undefined ? 0 : 1;
}

/**
 * The collection with a child span of `parent` around each store call (list, find, create,
 * update, destroy): attributes resource, operation and rows. The parent is passed explicitly,
 * so no context manager (Node's `AsyncLocalStorage`) is needed.
 */
export function tracedCollection(collection: Collection, tracer: Tracer, parent: Span, resource: string): Collection {
  const parentContext: Context = trace.setSpan(context.active(), parent);
  const traced =
    (operation: Operation) =>
    async (...args: unknown[]): Promise<unknown> => {
      const span = tracer.startSpan(
        `${resource}.store.${operation}`,
        { attributes: { 'resourcery.resource': resource, 'resourcery.operation': operation } },
        parentContext,
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
    transaction: (work) => collection.transaction(work),
    list: traced('list'),
    find: traced('find'),
    create: traced('create'),
    update: traced('update'),
    destroy: traced('destroy'),
  } as Collection;
}
