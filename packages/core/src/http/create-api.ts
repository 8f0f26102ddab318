import { HttpError, NotFoundError } from '../errors/http-error.js';
import { type ErrorLogger, toProblemResponse } from '../errors/problem.js';
import { type DescriptionOptions, describeApi } from '../openapi/serve-description.js';
import { parseId } from '../query/convert.js';
import { Context } from '../resource/context.js';
import { type CompiledResource, compiledResource } from '../resource/define-resource.js';
import { defaultSteps, runAction } from '../resource/run-action.js';
import type { ActionName, Resource, Steps } from '../resource/types.js';
import type { Store, StoreProvider } from '../store/store.js';
import { StoreUnavailable } from '../store/store-errors.js';
import type { NeutralRequest, NeutralResponse } from './neutral.js';

/** Options of {@link createApi}; `openapi` and `docs` serve `<base>/openapi.json` and `<base>/docs`. */
export interface ApiOptions<S = Record<string, unknown>> extends DescriptionOptions {
  /** The resources to serve; each under its own path segment. */
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state are accepted
  resources: readonly Resource<any, any>[];
  /** Where records live, for resources that do not name their own store. */
  store: StoreProvider;
  /** Builds the per-request `ctx.state` (e.g. from the user an auth middleware found). */
  state?: (request: NeutralRequest) => S | Promise<S>;
  /** Receives unexpected errors (500), store outages (503) and store constraint violations (409/422) with their cause. Default: `console.error`. */
  logError?: ErrorLogger;
}

/** A set of mounted resources answering neutral requests. */
export interface Api {
  /** Answers one request; never throws. */
  handle(request: NeutralRequest): Promise<NeutralResponse>;
  /** Prepares the stores (tables, connections); called by the first request if not before. */
  ready(): Promise<void>;
  /** Closes the stores. */
  close(): Promise<void>;
}

/** Prepares one store provider once; a failure is forgotten, so the next request tries again. */
class Readiness {
  done = false;
  /** The resources whose tables the provider holds. */
  readonly resources: CompiledResource[] = [];
  private pending: Promise<void> | undefined;

  constructor(readonly provider: StoreProvider) {}

  ready(): Promise<void> {
    this.pending ??= Promise.resolve(this.provider.init?.(this.resources.map((compiled) => compiled.schema))).then(
      () => {
        this.done = true; // from now on requests skip the wait
      },
      (error) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }
}

interface Mounted {
  readonly compiled: CompiledResource;
  readonly steps: Steps;
  readonly store: Store;
  /** The `Allow` header values of the collection and of a member, built once. */
  readonly allow: { readonly collection: string; readonly member: string };
  /** The readiness of the resource's store provider. */
  readonly readiness: Readiness;
}

const ROUTE = /^\/([^/]+)(?:\/([^/]*))?\/?$/;

function allowed(compiled: CompiledResource, member: boolean): string[] {
  const methods: [string, ActionName][] = member
    ? [
        ['GET', 'show'],
        ['PATCH', 'update'],
        ['DELETE', 'destroy'],
      ]
    : [
        ['GET', 'index'],
        ['POST', 'create'],
      ];
  const list = methods.filter(([, action]) => compiled.enabled.has(action)).map(([method]) => method);
  if (list.includes('GET')) list.splice(1, 0, 'HEAD');
  return [...list, 'OPTIONS'];
}

function actionFor(method: string, member: boolean): ActionName | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  if (member) return verb === 'GET' ? 'show' : verb === 'PATCH' ? 'update' : verb === 'DELETE' ? 'destroy' : undefined;
  return verb === 'GET' ? 'index' : verb === 'POST' ? 'create' : undefined;
}

/** Browsers must not guess another type than the one declared. */
function secured(response: NeutralResponse): NeutralResponse {
  response.headers['X-Content-Type-Options'] = 'nosniff';
  return response;
}

/**
 * Builds the framework-neutral request handler for a set of resources. Adapters (Express,
 * `node:http`) call `handle` with a {@link NeutralRequest} and copy the response back.
 *
 * @example
 * ```ts
 * const api = createApi({ resources: [books], store: memoryStore() });
 * const response = await api.handle({ method: 'GET', path: '/books', basePath: '/api', rawQuery: '', headers: {} });
 * ```
 */
export function createApi<S = Record<string, unknown>>(options: ApiOptions<S>): Api {
  const logError: ErrorLogger =
    options.logError ?? ((error, { method, path }) => console.error(`[resourcery] ${method} ${path} failed:`, error));
  const mounted = new Map<string, Mounted>();
  // Each store is prepared on its own: one that is down answers 503 for its resources only.
  const readiness = new Map<StoreProvider, Readiness>();
  const describe = describeApi(options.resources, options);
  for (const resource of options.resources) {
    const compiled = compiledResource(resource);
    if (mounted.has(resource.path)) throw new TypeError(`createApi: two resources use the path "${resource.path}"`);
    const provider = resource.options.store ?? options.store;
    let entry = readiness.get(provider);
    if (!entry) {
      entry = new Readiness(provider);
      readiness.set(provider, entry);
    }
    entry.resources.push(compiled);
    mounted.set(resource.path, {
      compiled,
      steps: { ...defaultSteps(compiled), ...compiled.steps },
      store: provider.collection(compiled.schema),
      allow: { collection: allowed(compiled, false).join(', '), member: allowed(compiled, true).join(', ') },
      readiness: entry,
    });
  }

  const ready = async (): Promise<void> => {
    await Promise.all([...readiness.values()].map((entry) => entry.ready()));
  };

  async function answer(request: NeutralRequest): Promise<NeutralResponse> {
    const described = describe(request);
    if (described) return described;
    const match = ROUTE.exec(request.path);
    const target = match ? mounted.get(match[1] as string) : undefined;
    if (!match || !target) throw new NotFoundError(`No resource at ${request.basePath}${request.path}`);
    const member = match[2] !== undefined;
    const allow = member ? target.allow.member : target.allow.collection;
    if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
    const action = actionFor(request.method, member);
    if (!action || !target.compiled.enabled.has(action)) {
      throw new HttpError(405, 'method_not_allowed', {
        detail: `${request.method} is not allowed on ${request.basePath}${request.path}; allowed: ${allow}`,
        headers: { Allow: allow },
      });
    }
    let id: number | undefined;
    if (member) {
      id = parseId(match[2] as string);
      if (id === undefined)
        throw new NotFoundError(`${target.compiled.resource.name} ${match[2]?.slice(0, 100)} does not exist`);
    }
    if (!target.readiness.done) await target.readiness.ready();
    const state = (options.state ? ((await options.state(request)) ?? {}) : {}) as Record<string, unknown>;
    const contextRequest = {
      method: request.method,
      path: request.path,
      basePath: request.basePath,
      rawQuery: request.rawQuery,
      headers: request.headers,
      native: request.native,
    };
    const ctx = new Context(action, target.compiled.resource, contextRequest, id, target.store, state);
    await runAction(target.compiled, target.steps, ctx, request);
    // The context is done with: its headers become the response's.
    const headers = ctx.headers;
    if (ctx.result === undefined) return { status: ctx.status, headers };
    if (headers['Content-Type'] === undefined && headers['content-type'] === undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
    }
    return { status: ctx.status, headers, body: JSON.stringify(ctx.result) };
  }

  return {
    handle(request) {
      return answer(request).then(secured, (error) => {
        const known = error instanceof StoreUnavailable ? error.toHttpError() : error;
        return secured(toProblemResponse(known, logError, request));
      });
    },
    ready,
    async close() {
      await Promise.all([...readiness.keys()].map((provider) => provider.close?.()));
    },
  };
}
