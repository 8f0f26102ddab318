import { HttpError } from '../errors/http-error.js';
import type { CompiledResource } from '../resource/compile.js';
import { problemResponse } from './problems.js';
import { filterParameters, searchParameter } from './query-parameters.js';
import type { DocumentedRelation } from './relations.js';
import type { JsonSchema } from './schemas.js';

/**
 * The operation of `GET /<plural>/events` (live events, CONTRACT part 4): a `text/event-stream`
 * narrowed by the index's filters, each event's data described by the `x-events` extension of its
 * media type (OpenAPI 3.1 has no schema for the items of a stream).
 *
 * @example
 * ```ts
 * eventsOperation(compiledResource(issues), [], 'watchIssues', {}, { $ref: '#/components/schemas/Issue' }).operationId; // 'watchIssues'
 * ```
 */
export function eventsOperation(
  compiled: CompiledResource,
  relations: readonly DocumentedRelation[],
  operationId: string,
  problems: Record<string, unknown>,
  record: JsonSchema,
): Record<string, unknown> & { responses: Record<string, unknown> } {
  const { name, plural } = compiled.resource;
  const parameters: JsonSchema[] = filterParameters(compiled, relations);
  const search = searchParameter(compiled, 'events');
  if (search) parameters.push(search);
  parameters.push({
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'The `id` of the last event received: the stream first replays every later event still kept (at least the last 10 minutes), else starts with `event: reset`.',
    schema: { type: 'string' },
  });
  const envelope = (schema: JsonSchema): JsonSchema => ({
    type: 'object',
    required: [name],
    properties: { [name]: schema },
    additionalProperties: false,
  });
  const id = compiled.schema.attributes[0]?.type === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'integer' };
  const idOnly = { type: 'object', required: ['id'], properties: { id }, additionalProperties: false };
  return {
    operationId,
    tags: [plural],
    summary: `Watch ${plural}`,
    description: `Server-Sent Events: one event per committed change of a ${name} the caller may see that the filters keep (before or after the change), as a show renders it for them; \`destroyed\` (also for an archive) carries only the id. \`Accept\` must allow \`text/event-stream\` (else 406). A comment line keeps an idle stream open; the stream ends when the bearer token expires. \`sort\`, \`page\`, \`per_page\`, \`include\`, \`fields\`, \`after\` and \`count\` are 400; a server holding its most streams answers 503 with \`Retry-After\`.`,
    parameters,
    responses: {
      success: {
        description: `The stream of events, a \`retry:\` line first and comment lines (\`: keep-alive\`) when idle; each event is \`id: <opaque, increasing>\`, \`event: created|updated|destroyed|reset\`, \`data: <one line of JSON>\`: its data's schema by event name is in \`x-events\``,
        content: {
          'text/event-stream': {
            schema: { type: 'string' },
            'x-events': {
              created: envelope(record),
              updated: envelope(record),
              destroyed: envelope(idOnly),
              reset: { type: 'object', additionalProperties: false },
            },
          },
        },
      },
      ...problems,
      '503': problemResponse(
        503,
        'This process holds its most event streams (`live.maxStreams` of `createApi`), or the data store cannot be reached: reconnect after `Retry-After` seconds.',
        new HttpError(503, 'service_unavailable', {
          detail: 'This server holds its most event streams (5000): reconnect later',
        }),
        { headers: { 'Retry-After': RETRY_AFTER } },
      ),
    },
  };
}

const RETRY_AFTER = { description: 'Seconds to wait before reconnecting', schema: { type: 'integer', minimum: 0 } };
