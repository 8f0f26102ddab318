// What a conformance suite drives; no test runner here, so that serveHttp needs none.

/** A running server under test, as `httpConformanceSuite`'s `start` (from `@resourcery/testing/suites`) answers it. */
export interface HttpSuiteTarget {
  /** URL of the base the `book` resource is mounted under, e.g. `http://127.0.0.1:4000/api`. */
  baseUrl: string;
  /** Stops the server and releases what `start` opened (connections, stores). */
  close(): Promise<void>;
  /**
   * Shuts the server down as the adapter's users do on `SIGTERM` (for Node, `closeServer` of
   * `@resourcery/node`): no more connections, open streams ended, requests in flight finished;
   * resolves when the server is closed. The streamed cases use it; `close` still comes after.
   */
  shutdown?(): Promise<void>;
}
