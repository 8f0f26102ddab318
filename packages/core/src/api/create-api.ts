import { defaultRoles } from '../access/principal.js';
import { ACTION_NAMES } from '../contract/actions.js';
import { EventStream } from '../http/event-stream.js';
import type { NeutralRequest, NeutralResponse } from '../http/neutral.js';
import type { ErrorLogger } from '../http/problem.js';
import { describeApi } from '../openapi/serve-description.js';
import { runMany, takesMany } from '../resource/bulk.js';
import { type CompiledResource, type HooksByAction, hooksByAction } from '../resource/compile.js';
import { Context } from '../resource/context.js';
import { compiledResource } from '../resource/define-resource.js';
import { authenticationRequired } from '../resource/guard.js';
import type { Hooks } from '../resource/hooks.js';
import { runAction } from '../resource/lifecycle.js';
import { type MountedResource, type MountedResources, mountResources } from '../resource/link.js';
import type { Id } from '../schema/types.js';
import type { Store } from '../store/store.js';
import type { Api, ApiOptions } from './api-options.js';

export type { Api, ApiOptions, HandleOptions } from './api-options.js';

import { healthAnswer } from './health.js';
import { liveEvents } from './live.js';
import { logToConsole } from './log-to-console.js';
import { logNothing } from './logger.js';
import { mergeHooks } from './merge-hooks.js';
import { observed, type Seen } from './observe.js';
import { keysLoader, Readiness } from './readiness.js';
import { reportRetries } from './retries.js';
import { allowHeaders, type Routable, route } from './route.js';
import { failedAnswer, withNosniff } from './to-problem.js';
import { inSpan, requestTracer, traceAction } from './tracing.js';

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
  const { authenticate } = options;
  const resources: MountedResources & { all: readonly MountedResource[] } = mountResources(
    options.resources.map((resource) => compiledResource(resource)),
    (compiled) => compiled.resource.options.store ?? options.store,
    { rolesOf: options.roles ?? defaultRoles, tenancy: options.tenancy, authenticates: authenticate !== undefined },
  );
  for (const self of resources.all) {
    if (!authenticate && self.access.needsPrincipal) {
      throw new TypeError(
        `createApi: ${self.compiled.resource.name} has access rules (or tenancy) that need a principal: give createApi an \`authenticate\` function`,
      );
    }
  }
  const live = liveEvents(options.live, resources.all, logError);
  if (live) resources.live = live;
  // Without a resource anonymous callers may use, a request without credentials is a 401 before routing.
  const anonymousAnywhere = resources.all.some((self) => ACTION_NAMES.some((action) => self.access.anonymous(action)));
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
      allow: allowHeaders(compiled.enabled, compiled.bulk !== undefined),
      bulk: compiled.bulk !== undefined,
      idType: compiled.schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer',
      compiled,
      self,
      hooks: mergeHooks(apiHooks, compiled.hooks),
      readiness: entry,
    });
  }
  // Join collections after every resource, as they refer to both sides.
  for (const self of resources.all) readiness.get(self.store)?.schemas.push(...self.joins);

  async function answer(request: NeutralRequest, seen?: Seen): Promise<NeutralResponse> {
    const described = describe(request);
    if (described) return described;
    // Preflights carry no credentials: OPTIONS is answered from the action table alone.
    const preflight = request.method === 'OPTIONS';
    const principal = authenticate && !preflight ? await authenticate(request) : undefined;
    if (authenticate && principal === undefined && !preflight && !anonymousAnywhere) throw authenticationRequired();
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
    const ctx = new Context(target.compiled, routed.action, contextRequest, routed.id as Id, self.collection, state, {
      self,
      api: resources,
    });
    ctx.principal = principal;
    ctx.bulk = routed.bulk === true;
    if (seen) {
      seen.resource = target.name;
      seen.action = routed.action;
      ctx.requestId = seen.requestId;
      if (seen.tracer) seen.span = traceAction(ctx, seen.tracer, target.name);
      reportRetries(ctx, seen, logger);
    }
    const span = seen?.span;
    // Bulk writes and upserts run each of their records through the action's lifecycle.
    const run = () =>
      takesMany(ctx, request) ? runMany(ctx, target.hooks, request) : runAction(ctx, target.hooks, request);
    await (span ? inSpan(span, run) : run());
    // The context is done with: its headers become the response's.
    const headers = ctx.headers;
    if (ctx.result instanceof EventStream) return { status: ctx.status, headers, stream: ctx.result };
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
      const rejectErrors = handling?.rejectErrors === true;
      return answer(request).then(withNosniff, (error) => failedAnswer(error, rejectErrors, logError, request));
    },
    async ready() {
      await Promise.all([...readiness.values()].map((entry) => entry.ready()));
      await loadKeys();
    },
    health(probe, probeOptions) {
      return healthAnswer(probe, readiness.values(), probeOptions);
    },
    async close() {
      live?.close();
      await Promise.all([...readiness.keys()].map((store) => store.close?.()));
    },
  };
}
