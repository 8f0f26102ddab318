import { type CaseGroup, registerGroups } from './http-cases/group.js';
import type { HttpSuiteOptions, HttpSuiteTarget } from './http-suite.js';
import { archiveCases } from './tracker-cases/archive-cases.js';
import { authCases } from './tracker-cases/auth-cases.js';
import { bulkCases } from './tracker-cases/bulk-cases.js';
import { hiddenFieldCases } from './tracker-cases/hidden-field-cases.js';
import { labelsCases } from './tracker-cases/labels-cases.js';
import { liveCases } from './tracker-cases/live-cases.js';
import { orderCases } from './tracker-cases/order-cases.js';
import { restoreCases } from './tracker-cases/restore-cases.js';
import { revealCases } from './tracker-cases/reveal-cases.js';
import { roleCases } from './tracker-cases/role-cases.js';
import { searchCases } from './tracker-cases/search-cases.js';
import { statsCases } from './tracker-cases/stats-cases.js';
import { tenancyReadCases } from './tracker-cases/tenancy-read-cases.js';
import { tenancyWriteCases } from './tracker-cases/tenancy-write-cases.js';
import { togetherCases } from './tracker-cases/together-cases.js';
import { DEVELOPMENT_SECRET } from './tracker-cases/tracker-tokens.js';

/** Options of {@link trackerConformanceSuite}: those of every suite, and the secret the tracker verifies tokens with. */
export interface TrackerSuiteOptions extends HttpSuiteOptions {
  /** The HS256 secret of the tracker's bearer tokens. Default `tracker-dev-secret`, the example's. */
  secret?: string;
}

const groups = (secret: string): CaseGroup[] => [
  authCases(secret),
  tenancyReadCases(secret),
  tenancyWriteCases(secret),
  roleCases(secret),
  orderCases(secret),
  hiddenFieldCases(secret),
  archiveCases(secret),
  restoreCases(secret),
  revealCases(secret),
  ...statsCases(secret),
  searchCases(secret),
  labelsCases(secret),
  togetherCases(secret),
  bulkCases(secret),
  liveCases(secret),
];

/**
 * The names of every case of {@link trackerConformanceSuite}, for `skip`.
 *
 * @example
 * ```ts
 * trackerConformanceSuite('my tracker', start, { skip: { [trackerCaseNames[0]]: 'not supported yet' } });
 * ```
 */
export const trackerCaseNames: readonly string[] = groups(DEVELOPMENT_SECRET).flatMap((entry) =>
  Object.keys(entry.cases),
);
if (new Set(trackerCaseNames).size !== trackerCaseNames.length) {
  throw new Error('trackerConformanceSuite: duplicate case name');
}

/**
 * Registers the conformance suite of CONTRACT part 4's access control, run over real HTTP with
 * `fetch` and bearer tokens minted with `jose`: authentication (401 before anything else, bad,
 * expired and incomplete tokens), tenancy (another organization's records absent from show,
 * index, counts, `include=`, relation filters, foreign keys and unique values), roles and the
 * order of answers (401, 403, 400, 404, 403, 422), fields hidden by role (`email`), archive
 * instead of destroy (and restore, and archived records behind foreign keys, `include=` and
 * relation filters), what no answer may reveal (ETags, cursors, error messages), and `q=` search.
 *
 * `start` must serve the contract's tracker under `/api` on an empty store: `user`, `project`,
 * `label`, `issue` and `comment`, declared as in `examples/tracker`, verifying HS256 tokens signed
 * with `options.secret`. Each group of cases gets its own target (closed after it) and seeds two
 * organizations through the API first.
 *
 * @example
 * ```ts
 * // examples/tracker/test/tracker-conformance.test.ts
 * trackerConformanceSuite('tracker + memory store', () => serveHttp(createApp(memoryStore())));
 * ```
 */
export function trackerConformanceSuite(
  name: string,
  start: () => Promise<HttpSuiteTarget>,
  options: TrackerSuiteOptions = {},
): void {
  registerGroups(name, groups(options.secret ?? DEVELOPMENT_SECRET), start, options);
}
