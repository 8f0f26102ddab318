// `resourcery` with an OpenTelemetry SDK registered globally, as docs/operations.md sets it up:
// every request gets its action's span and a child span per store query, batched by the SDK's
// BatchSpanProcessor to an exporter that drops them (what is measured is the library's spans and
// the SDK's work, not an exporter's network). Its ratio to `resourcery` is the cost of tracing:
// `node bench/run.mjs --only resourcery,resourcery-traced --baseline resourcery`.
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createApp } from '../../examples/books/dist/app.js';
import { serve } from '../lib/serve.mjs';
import { seededMemoryStore } from './resourcery.mjs';

/** An exporter that takes every batch and keeps nothing. */
const dropping = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-traced',
  description: 'resourcery with an OpenTelemetry SDK registered (batched spans, dropped by the exporter)',
  optIn: true,
  async start({ books }) {
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
    trace.setGlobalTracerProvider(provider);
    const store = await seededMemoryStore(books);
    return serve(createApp(store), () => provider.shutdown());
  },
};
