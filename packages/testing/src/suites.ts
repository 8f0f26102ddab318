// @resourcery/testing/suites: the shared conformance suites that every store and adapter runs,
// registered with Vitest (`describe`, `it`): import it from Vitest test files only. The helpers
// (`bookResource`, `serveHttp`, `callApi`, ...) are `@resourcery/testing`'s: each name has one home.

export { type HttpSuiteOptions, httpCaseNames, httpConformanceSuite } from './http-suite.js';
export { type LibrarySuiteOptions, libraryCaseNames, libraryConformanceSuite } from './library-suite.js';
export { readStreamText, readStreamToEnd } from './read-stream.js';
export * from './store-suite.js';
export { type TrackerSuiteOptions, trackerCaseNames, trackerConformanceSuite } from './tracker-suite.js';
