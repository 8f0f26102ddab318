import type { NeutralRequest, NeutralResponse } from '../http/neutral.js';
import type { ErrorLogger } from '../http/problem.js';
import { type DescriptionOptions, describeApi } from '../openapi/serve-description.js';
import { type CompiledResource, type HooksByAction, hooksByAction } from '../resource/compile.js';
import { Context } from '../resource/context.js';
import { compiledResource } from '../resource/define-resource.js';
import { runAction } from '../resource/lifecycle.js';
import { type MountedResource, type MountedResources, mountResources } from '../resource/link.js';
import type { Hooks, Resource } from '../resource/options.js';
import type { Store } from '../store/store.js';
import { type HealthOptions, healthAnswer } from './health.js';
import { logToConsole } from './log-to-console.js';
import { type Logger, logNothing } from './logger.js';
import { mergeHooks } from './merge-hooks.js';
import { observed, type Seen, withNosniff } from './observe.js';
import { keysLoader, Readiness } from './readiness.js';
import { allowHeaders, type Routable, route } from './route.js';
import { problemFor, storeErrorToHttp } from './to-problem.js';
import { inSpan, requestTracer, type TracingOption, traceAction } from './tracing.js';

/**
 * Options of {@link createApi} (and so of every adapter); `openapi` and `docs` serve
 * `<base>/openapi.json` and `<base>/docs`.
 */
export interface ApiOptions<S = Record<string, unknown>> extends DescriptionOptions {
  /** The resources to serve; each under its own path segment. */
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state are accepted
  resources: readonly Resource<any, any>[];
  /** Where records live, for resources that do not name their own store. */
  store: Store;
  /** Builds the per-request `ctx.state` (e.g. from the user an auth middleware found). */
  state?: (request: NeutralRequest) => S | Promise<S>;
  /**
   * Hooks for every resource, declared once (authentication, auditing, error mapping). API
   * `before` and `around` hooks run before (outside) the resource's own; `after` and `error`
   * hooks after them.
   */
  hooks?: Hooks<unknown, S>;
  /**
   * Receives unexpected errors (500) and store outages (503), and client errors with a cause:
   * store constraint violations (409/422), bodies the client stopped sending (400). Default:
   * `console.error`, with the stack for a 500 or 503 and in one line for the others.
   */
  logError?: ErrorLogger;
  /**
   * A structured logger (pino, or any with its `info/warn/error(fields, message)`): one line per
   * request (request id, method, path, resource, action, status, duration), `error` with the
   * stack for a 500 or 503, `warn` for a client error. Every response then carries the request's
   * id as `X-Request-Id`. Without it, nothing is logged per request.
   */
  logger?: Logger;
  /**
   * OpenTelemetry traces: a span `<resource>.<action>` per request and a child span
   * `<resource>.store.<operation>` per store query (those inside `ctx.transaction`, of
   * `ctx.collectionOf` and of `include=` too). By default (unset, or `true`) requests are traced
   * whenever an OpenTelemetry SDK is registered globally, also when it is registered after
   * `createApi`; while none is, nothing is wrapped and no span is made, at the cost of a couple
   * of property reads per request. `false` never traces, even with an SDK registered; a
   * `TracerProvider` traces to that provider whatever is registered globally.
   *
   * @example
   * ```ts
   * trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }));
   * const traced = createApi({ resources: [books], store });
   * const untraced = createApi({ resources: [books], store, tracing: false });
   * const ownProvider = createApi({ resources: [books], store, tracing: provider });
   * ```
   */
  tracing?: TracingOption;
  /**
   * The secret the API's entity tags are hashed with and its `after` cursors encrypted with
   * (at least 16 characters), the same in every process that serves the API. By default it is
   * the one the store keeps (`Store.secret`: the SQL stores keep it in a table, so every process
   * on one database shares it, across restarts); a store that keeps none needs this option.
   */
  secret?: string;
}

/** Options of {@link Api.handle}. */
export interface HandleOptions {
  /**
   * Reject with the error instead of answering it as a problem, for a host framework's own error
   * handling (Express's `next(err)`): an `HttpError` (store errors mapped to their 503, 409 or 422,
   * the store error kept as `cause`) or, when unexpected, what was thrown. Nothing is logged.
   */
  rejectErrors?: boolean;
}

/** A set of mounted resources answering neutral requests. */
export interface Api {
  /** Answers one request; never rejects, unless asked to with `rejectErrors`. */
  handle(request: NeutralRequest, options?: HandleOptions): Promise<NeutralResponse>;
  /** Prepares the stores (tables, connections); called by the first request if not before. */
  ready(): Promise<void>;
  /** Closes the stores. */
  close(): Promise<void>;
  /**
   * A health probe's answer: `live` (200 while the process runs) or `ready` (200 when every
   * store answers a cheap query within `timeoutMs`, else 503 problem+json). Mount it with
   * `healthRoutes(api)` (Express) or answer `/healthz` and `/readyz` with it yourself.
   */
  health(probe: 'live' | 'ready', options?: HealthOptions): Promise<NeutralResponse>;
}

interface Mounted extends Routable {
  readonly compiled: CompiledResource;
  readonly self: MountedResource;
  /** The API's hooks and the resource's, merged in the order they run. */
  readonly hooks: HooksByAction;
  readonly readiness: Readiness;
}

/**
 * Builds the framework-neutral handler of a set of resources. Adapters (Express, `node:http`)
 * call `handle` with a {@link NeutralRequest} and copy the response back.
 *
 * @example
 * ```ts
 * const api = createApi({ resources: [books], store: memoryStore() });
 * const response = await api.handle({ method: 'GET', path: '/books', basePath: '/api', rawQuery: '', headers: {} });
 * ```
 */
export function createApi<S = Record<string, unknown>>(options: ApiOptions<S>): Api {
  const { logger } = options;
  const logError: ErrorLogger = options.logError ?? (logger ? logNothing : logToConsole);
  const tracerNow = requestTracer(options.tracing);
  const apiHooks = hooksByAction(options.hooks as Hooks | undefined);
  const mounted = new Map<string, Mounted>();
  // Each store is prepared on its own: one that is down answers 503 for its resources only.
  const readiness = new Map<Store, Readiness>();
  const describe = describeApi(options.resources, options);
  const resources: MountedResources & { all: readonly MountedResource[] } = mountResources(
    options.resources.map((resource) => compiledResource(resource)),
    (compiled) => compiled.resource.options.store ?? options.store,
  );
  const loadKeys = keysLoader(options, resources);
  // Referenced tables first, so that a store can create its foreign keys.
  for (const self of resources.all) {
    const { compiled, store } = self;
    const resource = compiled.resource;
    if (mounted.has(resource.path)) throw new TypeError(`createApi: two resources use the path "${resource.path}"`);
    let entry = readiness.get(store);
    if (!entry) {
      entry = new Readiness(store);
      readiness.set(store, entry);
    }
    entry.schemas.push(self.schema);
    mounted.set(resource.path, {
      name: resource.name,
      enabled: compiled.enabled,
      allow: allowHeaders(compiled.enabled),
      idType: compiled.schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer',
      compiled,
      self,
      hooks: mergeHooks(apiHooks, compiled.hooks),
      readiness: entry,
    });
  }

  async function answer(request: NeutralRequest, seen?: Seen): Promise<NeutralResponse> {
    const described = describe(request);
    if (described) return described;
    const routed = route(request, mounted);
    const { target } = routed;
    if (routed.options !== undefined) return { status: 204, headers: { Allow: routed.options } };
    if (!target.readiness.done) await target.readiness.ready();
    if (!resources.keys) await loadKeys();
    const state = (options.state ? ((await options.state(request)) ?? {}) : {}) as Record<string, unknown>;
    const contextRequest = {
      method: request.method,
      path: request.path,
      basePath: request.basePath,
      rawQuery: request.rawQuery,
      headers: request.headers,
      native: request.native,
    };
    const { self } = target;
    const ctx = new Context(target.compiled, routed.action, contextRequest, routed.id, self.collection, state, {
      self,
      api: resources,
    });
    if (seen) {
      seen.resource = target.name;
      seen.action = routed.action;
      ctx.requestId = seen.requestId;
      if (seen.tracer) seen.span = traceAction(ctx, seen.tracer, target.name);
    }
    const span = seen?.span;
    await (span ? inSpan(span, () => runAction(ctx, target.hooks, request)) : runAction(ctx, target.hooks, request));
    // The context is done with: its headers become the response's.
    const headers = ctx.headers;
    if (ctx.result === undefined) return { status: ctx.status, headers };
    if (headers['Content-Type'] === undefined && headers['content-type'] === undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
    }
    return { status: ctx.status, headers, body: JSON.stringify(ctx.result) };
  }

  const observe = observed(answer, logger, logError);

  return {
    handle(request, handling) {
      const tracer = tracerNow?.();
      if (logger || tracer) return observe(request, handling?.rejectErrors === true, tracer);
      return answer(request).then(withNosniff, (error) => {
        if (handling?.rejectErrors) throw storeErrorToHttp(error);
        return withNosniff(problemFor(error, logError, request));
      });
    },
    async ready() {
      await Promise.all([...readiness.values()].map((entry) => entry.ready()));
      await loadKeys();
    },
    health(probe, probeOptions) {
      return healthAnswer(probe, readiness.values(), probeOptions);
    },
    async close() {
      await Promise.all([...readiness.keys()].map((store) => store.close?.()));
    },
  };
}
