import type { Tenancy } from '../access/declare.js';
import type { RolesOf } from '../access/principal.js';
import type { Authenticate } from '../http/bearer-jwt.js';
import type { NeutralRequest, NeutralResponse } from '../http/neutral.js';
import type { ErrorLogger } from '../http/problem.js';
import type { DescriptionOptions } from '../openapi/serve-description.js';
import type { Hooks } from '../resource/hooks.js';
import type { Resource } from '../resource/options.js';
import type { Store } from '../store/store.js';
import type { HealthOptions } from './health.js';
import type { Logger } from './logger.js';
import type { TracingOption } from './tracing.js';

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
  /**
   * Who a request comes from: its principal (`ctx.principal`, what access rules are decided
   * for), or `undefined` for a caller without credentials, who then gets a 401 (problem+json
   * with `WWW-Authenticate: Bearer`) before anything else is looked at, unless a resource lets
   * anonymous callers take the action (`access.anonymous`). Throw an `UnauthorizedError` for
   * credentials that are not good. `bearerJwt()` makes one for JSON Web Tokens.
   *
   * @example
   * ```ts
   * createApi({ resources, store, authenticate: bearerJwt({ secret, principal: (claims) => ({ sub: Number(claims.sub) }) }) });
   * ```
   */
  authenticate?: Authenticate;
  /**
   * Tenancy, declared once: every resource holding `field` is scoped to `of(principal)` on every
   * path (another tenant's records do not exist), `field` is set on create and never writable,
   * and unique values are unique within a tenant.
   */
  tenancy?: Tenancy;
  /** How a principal's roles are read for role lists in access rules. Default: `principal.roles`, else `principal.role`. */
  roles?: RolesOf;
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
  /** Limits of the live events streams of the resources declared `live: true` (docs/live.md). */
  live?: LiveOptions;
}

/**
 * Limits of the live events streams (`GET /<plural>/events`) of one API.
 *
 * @example
 * ```ts
 * createApi({ resources, store, live: { maxStreams: 2_000, heartbeatMs: 20_000 } });
 * ```
 */
export interface LiveOptions {
  /** The most streams open at once in this process; one more is answered 503 with `Retry-After`. Default 5,000. */
  readonly maxStreams?: number;
  /** A comment line after this many milliseconds without an event, to keep proxies from closing the connection. Default 15,000. */
  readonly heartbeatMs?: number;
  /** The most characters waiting for one slow client; past them its stream ends (it reconnects with `Last-Event-ID`). Default 65,536. */
  readonly bufferLimit?: number;
  /**
   * When a caller's credentials expire (epoch milliseconds): the stream ends then. Default: the
   * `exp` of the token `bearerJwt` verified, else never.
   */
  readonly expiresAt?: (principal: unknown, request: NeutralRequest) => number | undefined;
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
  /** Ends the open live event streams, then closes the stores. */
  close(): Promise<void>;
  /**
   * A health probe's answer: `live` (200 while the process runs) or `ready` (200 when every
   * store answers a cheap query within `timeoutMs`, else 503 problem+json). Mount it with
   * `healthRoutes(api)` (Express) or answer `/healthz` and `/readyz` with it yourself.
   */
  health(probe: 'live' | 'ready', options?: HealthOptions): Promise<NeutralResponse>;
}
