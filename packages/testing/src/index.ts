// @resourcery/testing: the shared conformance suites that every store and adapter runs, and
// helpers for testing your own hooks and steps. Imports Vitest: use it from test files only.
export { Book, type BookResourceOptions, bookResource } from './book-resource.js';
export { type CallInit, type CallReply, callApi } from './call-api.js';
export { type HttpSuiteOptions, type HttpSuiteTarget, httpCaseNames, httpConformanceSuite } from './http-suite.js';
export { type LibrarySuiteOptions, libraryCaseNames, libraryConformanceSuite } from './library-suite.js';
export { serveHttp } from './serve-http.js';
export * from './store-suite.js';
export { createTestContext, type TestContextInit } from './test-context.js';
export { type TrackerSuiteOptions, trackerCaseNames, trackerConformanceSuite } from './tracker-suite.js';
