// Test helpers of @resourcery/core (`@resourcery/core/testing`): shared conformance suites
// that every adapter and store runs. Imports Vitest, so use it from test files only.
export { Book, type BookResourceOptions, bookResource } from './book-resource.js';
export { type HttpSuiteOptions, type HttpSuiteTarget, httpCaseNames, httpConformanceSuite } from './http-suite.js';
export { serveHttp } from './serve-http.js';
export * from './store-suite.js';
