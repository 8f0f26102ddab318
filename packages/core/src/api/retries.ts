import type { Context } from '../resource/context.js';
import { storeCollection } from '../resource/primary-reads.js';
import type { Collection, StoreRetry } from '../store/store.js';
import type { Logger } from './logger.js';
import type { Seen } from './observe.js';

/**
 * Makes an observed request (logged, or traced with its span recorded) learn of each retry of its
 * store: a transaction of `ctx.transaction` (a bulk write's) or a write outside one, run again
 * after the database aborted it for a conflict. Each is logged (`warn`, with the request's id)
 * when the API has a logger, is an event `resourcery.retry` of the action's span, and counts in
 * the span's `resourcery.retries` and in the request's log line (`retries`). Called after
 * `traceAction`: the collections it hands out report their retries under the tracing wrapper.
 *
 * @example
 * ```ts
 * if (seen) reportRetries(ctx, seen, logger);
 * ```
 */
export function reportRetries(ctx: Context, seen: Seen, logger: Logger | undefined): void {
  // A request neither logged nor recorded (its span dropped by the sampler) pays nothing.
  if (!logger && !seen.span?.isRecording()) return;
  const report = (retry: StoreRetry) => {
    seen.retries += 1;
    const { requestId, resource, action, span } = seen;
    logger?.warn({ requestId, resource, action, ...retry }, 'store conflict: running it again');
    if (!span) return;
    const attributes: Record<string, string | number> = {
      'resourcery.retry.scope': retry.scope,
      'resourcery.retry.attempt': retry.attempt,
      'resourcery.retry.code': retry.code,
      'resourcery.retry.delay_ms': retry.delayMs,
    };
    if (retry.collection !== undefined) attributes['resourcery.retry.collection'] = retry.collection;
    span.addEvent('resourcery.retry', attributes);
    span.setAttribute('resourcery.retries', seen.retries);
  };
  ctx.onRetry = report;
  const traced = ctx.wrapCollection;
  const reporting = (collection: Collection) => collection.reportingRetries?.(report) ?? collection;
  ctx.wrapCollection = traced ? (collection, name) => traced(reporting(collection), name) : reporting;
  const self = ctx.mounted?.self;
  if (self) ctx.collection = ctx.wrapCollection(storeCollection(ctx, self), self.compiled.resource.name);
}
