import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';

// The example's server as a team runs it with OTEL_TRACES_EXPORTER: its spans leave the process
// through the OpenTelemetry exporters (OTLP over HTTP to a collector, or the console), and the
// request's log line names the trace they belong to.

/** The parts of an OTLP/JSON export request (ExportTraceServiceRequest) that are looked at. */
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { name: string; traceId: string; attributes: { key: string }[] }[] }[];
  }[];
}

let bundle: string;
/** What arrives at the collector's OTLP/HTTP endpoint, as its content type and parsed body. */
const exports: { contentType: string | undefined; body: OtlpExport }[] = [];
let collector: Server;
let collectorUrl: string;

beforeAll(async () => {
  bundle = await bundleExampleServer();
  collector = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method === 'POST' && req.url === '/v1/traces') {
      exports.push({ contentType: req.headers['content-type'], body: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } else {
      res.writeHead(404).end();
    }
  }).listen(0, '127.0.0.1');
  await once(collector, 'listening');
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => collector.close(done)));

/** Stops the server as an orchestrator does (SIGTERM) and answers its exit code. */
async function stop(server: ExampleServer): Promise<number | null> {
  await server.kill('SIGTERM');
  return server.child.exitCode;
}

/** The JSON log line (pino's) of the request with this id, in the server's output. */
function logLine(output: string, requestId: string | null): Record<string, unknown> | undefined {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.requestId === requestId);
}

describe('the example server with OTEL_TRACES_EXPORTER', () => {
  it('sends each request trace, store query included, to the OTLP collector before it exits', async () => {
    exports.length = 0;
    const server = await ExampleServer.start(bundle, 'memory:', {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_SERVICE_NAME: 'books-under-test',
    });
    const response = await fetch(`${server.baseUrl}/books?per_page=5`);
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(exports).toEqual([]); // batched: sent on the batch's schedule or at shutdown
    expect(await stop(server)).toBe(0);
    expect(server.stderr).toBe('');

    expect(exports.map((sent) => sent.contentType)).toEqual(['application/json']);
    const [resourceSpans] = exports[0]?.body.resourceSpans ?? [];
    const service = resourceSpans?.resource.attributes.find((attribute) => attribute.key === 'service.name');
    expect(service?.value.stringValue).toBe('books-under-test');
    const spans = resourceSpans?.scopeSpans.flatMap((scope) => scope.spans) ?? [];
    expect(spans.map((span) => span.name).sort()).toEqual(['book.index', 'book.store.list']);
    const traceIds = new Set(spans.map((span) => span.traceId));
    expect(traceIds.size).toBe(1);
    // The request's log line leads to its trace.
    expect(logLine(server.output, requestId)).toMatchObject({ action: 'index', traceId: [...traceIds][0] });
  });

  it('prints the spans with OTEL_TRACES_EXPORTER=console', async () => {
    const server = await ExampleServer.start(bundle, 'memory:', { OTEL_TRACES_EXPORTER: 'console' });
    const response = await fetch(`${server.baseUrl}/books/1`);
    expect(response.status).toBe(404);
    expect(await stop(server)).toBe(0);
    expect(server.output).toContain("name: 'book.show'");
    expect(server.output).toContain("name: 'book.store.find'");
    expect(server.output).toContain("'service.name': 'books-api'");
  });
});
