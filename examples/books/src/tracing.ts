import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** The exporters `OTEL_TRACES_EXPORTER` may name, as in OpenTelemetry's own SDKs. */
const EXPORTERS: Record<string, (() => SpanExporter) | undefined> = {
  // Sends to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (default
  // http://localhost:4318), which the exporter reads itself, with OTEL_EXPORTER_OTLP_HEADERS.
  otlp: () => new OTLPTraceExporter(),
  console: () => new ConsoleSpanExporter(),
};

/**
 * Registers an OpenTelemetry SDK when `OTEL_TRACES_EXPORTER` names exporters (comma-separated):
 * `otlp` sends the spans to a collector over OTLP/HTTP, `console` prints them; unset or `none`,
 * nothing is registered and nothing is traced. The service is `OTEL_SERVICE_NAME` (default
 * `books-api`), with `OTEL_RESOURCE_ATTRIBUTES`. Answers the provider, to shut down on exit (it
 * sends the spans still batched), or `undefined`; throws on an exporter it does not know.
 *
 * @example
 * ```ts
 * // OTEL_TRACES_EXPORTER=otlp OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 npm start
 * const provider = startTracing(); // before the app serves its first request
 * // ... serve; on exit:
 * await provider?.shutdown();
 * ```
 */
export function startTracing(): BasicTracerProvider | undefined {
  const setting = process.env.OTEL_TRACES_EXPORTER ?? '';
  const names = setting
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'none');
  if (names.length === 0) return undefined;
  const exporters = names.map((name) => {
    const make = Object.hasOwn(EXPORTERS, name) ? EXPORTERS[name] : undefined;
    if (!make) {
      throw new Error(
        `OTEL_TRACES_EXPORTER=${setting} names "${name}": use otlp, console or none, e.g. OTEL_TRACES_EXPORTER=otlp npm start`,
      );
    }
    return make();
  });
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'books-api' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: exporters.map((exporter) => new BatchSpanProcessor(exporter)),
  });
  trace.setGlobalTracerProvider(provider);
  return provider;
}
