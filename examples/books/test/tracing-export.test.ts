import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleExampleServer } from '../../../scripts/bundle-example-server.mjs';

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
  bundle = await bundleExampleServer('books-tracing');
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
}, 30_000);
afterAll(() => new Promise((done) => collector.close(done)));

/** Starts the example's server with `env` on a free port; answers its origin and its output so far. */
async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, PORT: '0', DATABASE_URL: 'memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output.stderr}`)));
    child.stdout.on('data', () => {
      const found = /http:\/\/localhost:(\d+)\/api\/books/.exec(output.stdout);
      if (found) resolve(`http://127.0.0.1:${found[1]}`);
    });
  });
  return { child, origin, output };
}

/** Stops the server as an orchestrator does (SIGTERM) and answers its exit code. */
async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code;
}

/** The JSON log lines of the server's output (pino's), by request id. */
function logLine(stdout: string, requestId: string | null): Record<string, unknown> | undefined {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.requestId === requestId);
}

describe('the example server with OTEL_TRACES_EXPORTER', () => {
  it('sends each request trace, store query included, to the OTLP collector before it exits', async () => {
    exports.length = 0;
    const { child, origin, output } = await startServer({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_SERVICE_NAME: 'books-under-test',
    });
    const response = await fetch(`${origin}/api/books?per_page=5`);
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(exports).toEqual([]); // batched: sent on the batch's schedule or at shutdown
    expect(await stop(child)).toBe(0);
    expect(output.stderr).toBe('');

    expect(exports.map((sent) => sent.contentType)).toEqual(['application/json']);
    const [resourceSpans] = exports[0]?.body.resourceSpans ?? [];
    const service = resourceSpans?.resource.attributes.find((attribute) => attribute.key === 'service.name');
    expect(service?.value.stringValue).toBe('books-under-test');
    const spans = resourceSpans?.scopeSpans.flatMap((scope) => scope.spans) ?? [];
    expect(spans.map((span) => span.name).sort()).toEqual(['book.index', 'book.store.list']);
    const traceIds = new Set(spans.map((span) => span.traceId));
    expect(traceIds.size).toBe(1);
    // The request's log line leads to its trace.
    expect(logLine(output.stdout, requestId)).toMatchObject({ action: 'index', traceId: [...traceIds][0] });
  }, 30_000);

  it('prints the spans with OTEL_TRACES_EXPORTER=console', async () => {
    const { child, origin, output } = await startServer({ OTEL_TRACES_EXPORTER: 'console' });
    const response = await fetch(`${origin}/api/books/1`);
    expect(response.status).toBe(404);
    expect(await stop(child)).toBe(0);
    expect(output.stdout).toContain("name: 'book.show'");
    expect(output.stdout).toContain("name: 'book.store.find'");
    expect(output.stdout).toContain("'service.name': 'books-api'");
  }, 30_000);

  it('says in one line which exporters it takes when it knows not the one named', async () => {
    const child = spawn(process.execPath, [bundle], {
      env: { ...process.env, PORT: '0', DATABASE_URL: 'memory:', OTEL_TRACES_EXPORTER: 'zipkin' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toBe(
      'OTEL_TRACES_EXPORTER=zipkin names "zipkin": use otlp, console or none, e.g. OTEL_TRACES_EXPORTER=otlp npm start\n',
    );
  }, 30_000);
});
