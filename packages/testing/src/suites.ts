// @resourcery/testing/suites: the shared conformance suites that every store and adapter runs,
// registered with Vitest (`describe`, `it`): import it from Vitest test files only. It also
// re-exports everything of `@resourcery/testing`, so that one import serves a suite's file.

export { type HttpSuiteOptions, httpCaseNames, httpConformanceSuite } from './http-suite.js';
export * from './index.js';
export { type LibrarySuiteOptions, libraryCaseNames, libraryConformanceSuite } from './library-suite.js';
export { readStreamText, readStreamToEnd } from './read-stream.js';
export * from './store-suite.js';
export { type TrackerSuiteOptions, trackerCaseNames, trackerConformanceSuite } from './tracker-suite.js';
