import type { Api } from '@resourcery/core';
import { bodyCases } from './http-cases/body-cases.js';
import { conditionalCases } from './http-cases/conditional-cases.js';
import { encodingCases } from './http-cases/encoding-cases.js';
import { type CaseGroup, registerGroups } from './http-cases/group.js';
import { hostileCases } from './http-cases/hostile-cases.js';
import { indexCases } from './http-cases/index-cases.js';
import { limitCases } from './http-cases/limit-cases.js';
import { paginationCases } from './http-cases/pagination-cases.js';
import { queryErrorCases } from './http-cases/query-error-cases.js';
import { createCases, memberCases } from './http-cases/record-cases.js';
import { routingCases } from './http-cases/routing-cases.js';
import { streamCases } from './http-cases/stream-cases.js';
import { strictnessCases } from './http-cases/strictness-cases.js';
import { validationCases } from './http-cases/validation-cases.js';
import type { HttpSuiteTarget } from './http-target.js';
import { streamingApi } from './push-stream.js';

export type { HttpSuiteTarget } from './http-target.js';

/** Options of {@link httpConformanceSuite}. */
export interface HttpSuiteOptions {
  /** Cases not to run, by name, each with the reason (shown in the test report). */
  skip?: Readonly<Record<string, string>>;
  /** Timeout of each case and of each group's start and setup, in ms. Default 30 000. */
  timeout?: number;
  /**
   * Runs the group "streamed responses" (how the adapter writes a `text/event-stream` body):
   * starts the server as `start` does, with its API passed through `wrap` (which answers
   * `GET /streamed` with a stream the cases feed), and a target whose `shutdown` is the
   * adapter's graceful close.
   */
  streaming?: (wrap: (api: Api) => Api) => Promise<HttpSuiteTarget>;
}

const GROUPS: readonly CaseGroup[] = [
  createCases,
  memberCases,
  indexCases,
  paginationCases,
  queryErrorCases,
  bodyCases,
  encodingCases,
  validationCases,
  routingCases,
  conditionalCases,
  limitCases,
  hostileCases,
  ...strictnessCases,
];

/**
 * The names of every case of the suite, for `skip`.
 *
 * @example
 * ```ts
 * httpConformanceSuite('my adapter', start, { skip: { [httpCaseNames[0]]: 'not supported yet' } });
 * ```
 */
export const httpCaseNames: readonly string[] = [...GROUPS, streamCases(unused())].flatMap((entry) =>
  Object.keys(entry.cases),
);
// `skip` addresses cases by name alone, so a name may appear in one group only.
if (new Set(httpCaseNames).size !== httpCaseNames.length) throw new Error('httpConformanceSuite: duplicate case name');

/**
 * Registers the HTTP conformance suite: one Vitest test per line of the HTTP contract
 * (`CONTRACT.md`), run over real HTTP with `fetch`. Every adapter and every store runs it.
 *
 * `start` must serve the contract's `book` resource ({@link bookResource}) under `/api`, on an
 * empty store. It is called once per group of cases, so each group starts from a fresh state,
 * and the target is closed after the group. The cases rely on nothing but the contract: not
 * on timing, not on ids starting at 1, not on a particular store.
 *
 * @example
 * ```ts
 * // packages/express/test/http-conformance.test.ts
 * httpConformanceSuite('express + memory store', () =>
 *   serveHttp(express().use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }))),
 * );
 * ```
 */
export function httpConformanceSuite(
  name: string,
  start: () => Promise<HttpSuiteTarget>,
  options: HttpSuiteOptions = {},
): void {
  const { streaming } = options;
  if (!streaming) {
    registerGroups(name, GROUPS, () => start(), options);
    return;
  }
  let streams: ReturnType<typeof streamingApi> | undefined;
  let target: HttpSuiteTarget | undefined;
  const streamed = streamCases({
    opened: () => (streams as NonNullable<typeof streams>).opened(),
    target: () => target as HttpSuiteTarget,
  });
  const startStreaming = async () => {
    target = await streaming((api) => {
      streams = streamingApi(api);
      return streams.api;
    });
    if (!streams) throw new Error(`${name}: options.streaming did not call wrap on its API`);
    return target;
  };
  registerGroups(name, [...GROUPS, streamed], (entry) => (entry === streamed ? startStreaming() : start()), options);
}

/** A control for listing the names of the streamed cases, which never run with it. */
function unused(): Parameters<typeof streamCases>[0] {
  const never = () => {
    throw new Error('not a running suite');
  };
  return { opened: never, target: never };
}
