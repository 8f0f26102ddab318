// @resourcery/testing: helpers for testing your own hooks, steps and servers, with any test
// runner (or none): a context as the lifecycle builds it, a whole API called without a server,
// a listener served on a free port. The conformance suites, which need Vitest, are the sub-path
// `@resourcery/testing/suites` (./suites.ts); nothing here imports a test runner.
export { Book, type BookResourceOptions, bookResource } from './book-resource.js';
export { type CallInit, type CallReply, callApi } from './call-api.js';
export { type EventReader, openEvents, type ReceivedEvent } from './event-reader.js';
export type { HttpSuiteTarget } from './http-target.js';
export { Note, noteResource } from './note-resource.js';
export { PushStream, streamingApi } from './push-stream.js';
export { serveHttp } from './serve-http.js';
export { createTestContext, type TestContextInit } from './test-context.js';
