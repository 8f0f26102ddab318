import { ACTIONS, type ActionName } from '../contract/actions.js';
import type { CompiledResource } from '../resource/compile.js';
import { eventsOperation } from './events-operation.js';
import {
  collectionIfMatch,
  idParameter,
  ifMatchParameter,
  ifNoneMatchParameter,
  includeParameter,
  indexParameters,
} from './parameters.js';
import { problemResponsesOf } from './problem-refs.js';
import { fieldsParameter } from './query-parameters.js';
import type { DocumentedRelation } from './relations.js';
import type { JsonSchema } from './schemas.js';
import { statsOperation, targetPath } from './stats-operation.js';

/** The component names given to one resource's schemas. */
export interface SchemaNames {
  readonly output: string;
  readonly createInput: string;
  readonly updateInput: string;
  /** The record with its relations, as show and index answer it (resources with relations only). */
  readonly withRelations?: string;
  /** The record as `fields=` answers it: `id` and some of the fields (resources showing a field but `id`). */
  readonly fields?: string;
}

/** What the document knows of a resource beyond its own declaration. */
export interface ResourceLinks {
  /** Its relations, their targets found. */
  readonly relations: readonly DocumentedRelation[];
  /** Whether a destroy may be refused with 409 because other records refer to the record. */
  readonly referenced: boolean;
}

const JSON_MEDIA_TYPE = 'application/json';
/** Where an operation puts its success response until the action table gives its status. */
const SUCCESS = 'success';

type Operation = Record<string, unknown> & { responses: Record<string, unknown> };
const READING_ORDER = ['GET', 'POST', 'PATCH', 'DELETE'];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const problems = problemResponsesOf;

/** `{ "<key>": <schema> }` with nothing else, as the contract's bodies are. */
function envelope(key: string, schema: JsonSchema): JsonSchema {
  return { type: 'object', required: [key], properties: { [key]: schema }, additionalProperties: false };
}

function requestBody(compiled: CompiledResource, input: string, description: string): JsonSchema {
  const { name } = compiled.resource;
  // The server unwraps `{"book": {...}}` only when the model has no field of that name.
  const schema = compiled.attributes.has(name) ? ref(input) : { oneOf: [ref(input), envelope(name, ref(input))] };
  return {
    required: true,
    description: `${description} Send it flat or wrapped under \`${name}\`; both mean the same. Any \`application/json\` or \`+json\` content type is accepted.`,
    content: { [JSON_MEDIA_TYPE]: { schema } },
  };
}

/**
 * The path items of one resource: `/<path>` (index, create) and `/<path>/{id}` (show, update,
 * destroy), holding only the enabled actions, with their exact success statuses, headers and
 * every problem response they can give.
 *
 * @example
 * ```ts
 * const items = resourcePaths(compiledResource(books), names, (action) => `${action}Book`);
 * Object.keys(items); // ['/books', '/books/{id}']
 * ```
 */
export function resourcePaths(
  compiled: CompiledResource,
  names: SchemaNames,
  operationId: (action: string) => string,
  links: ResourceLinks = { relations: [], referenced: false },
): Record<string, Record<string, unknown>> {
  const { name, plural, path } = compiled.resource;
  const { relations, referenced } = links;
  // Show and index add what `include` asks for, and answer only what `fields` names.
  const whole = ref(names.withRelations ?? names.output);
  const shown = names.fields ? { anyOf: [whole, ref(names.fields)] } : whole;
  const fields = fieldsParameter(compiled);
  const view = [...(fields ? [fields] : []), ...(relations.length > 0 ? [includeParameter(compiled, relations)] : [])];
  const cursor = compiled.query.pagination === 'cursor';
  const tags = [plural];
  const etag = {
    description: `The ${name}'s entity tag: send it back in \`If-None-Match\` (show) or \`If-Match\` (show, update, destroy)`,
    required: true,
    schema: { type: 'string' },
  };
  const record = (
    description: string,
    headers: Record<string, unknown> = {},
    schema: JsonSchema = ref(names.output),
  ) => ({
    description,
    headers: { ...headers, ETag: etag },
    content: { [JSON_MEDIA_TYPE]: { schema: envelope(name, schema) } },
  });
  const notServed =
    'Other methods answer 405 (`method_not_allowed`) with an `Allow` header listing the methods served; `OPTIONS` answers 204 with the same `Allow`. The path is spelled exactly: a trailing slash or another case is 404.';
  const collection: Record<string, unknown> = { description: notServed };
  const member: Record<string, unknown> = { description: notServed, parameters: [idParameter(compiled)] };
  const stats: Record<string, unknown> = { description: notServed };
  const events: Record<string, unknown> = { description: notServed };

  // Each action's operation; its method, path and success status come from the action table.
  const operations: Record<ActionName, () => Operation> = {
    stats: () =>
      statsOperation(compiled, relations, operationId('stats'), problems('BadRequest', 'PreconditionFailed')),
    events: () =>
      eventsOperation(
        compiled,
        relations,
        operationId('watch'),
        problems('BadRequest', 'NotAcceptable'),
        ref(names.output),
      ),
    index: () => ({
      operationId: operationId('index'),
      tags,
      summary: `List ${plural}`,
      description: `A page of ${plural}, filtered and sorted. Pagination travels in headers; the body keeps its shape. A query string over ${compiled.limits.queryLength} characters is 414.`,
      parameters: [...indexParameters(compiled, relations), collectionIfMatch],
      responses: {
        [SUCCESS]: {
          description: `The ${plural} of the page (an empty list past the last page)`,
          headers: {
            Link: cursor
              ? {
                  description:
                    'An RFC 8288 link to the `next` page, keeping the other parameters and setting `after`; absent on the last page',
                  schema: { type: 'string' },
                }
              : {
                  description:
                    'RFC 8288 links to the `first`, `prev`, `next` and `last` pages (those that exist), each keeping the other parameters',
                  required: true,
                  schema: { type: 'string' },
                },
            'X-Total-Count': {
              description: `The number of ${plural} matching the filters, on all pages${cursor ? ' (only with `count=true`)' : ''}`,
              schema: { type: 'integer', minimum: 0 },
            },
            'X-Total-Count-Estimate': {
              description: `With \`count=estimated\`, instead of \`X-Total-Count\` when more ${plural} match than are counted exactly: the store's estimate`,
              schema: { type: 'integer', minimum: 0 },
            },
          },
          content: {
            [JSON_MEDIA_TYPE]: { schema: envelope(plural, { type: 'array', items: shown }) },
          },
        },
        ...problems('BadRequest', 'PreconditionFailed', 'UriTooLong'),
      },
    }),
    create: () => ({
      operationId: operationId('create'),
      tags,
      summary: `Create a ${name}`,
      parameters: [collectionIfMatch],
      requestBody: requestBody(compiled, names.createInput, `The new ${name}'s fields; the server assigns \`id\`.`),
      responses: {
        [SUCCESS]: record(`The ${name} as stored`, {
          Location: {
            description: `The path of the new ${name}`,
            required: true,
            schema: { type: 'string', format: 'uri-reference' },
          },
        }),
        ...problems('BadRequest', 'PreconditionFailed', 'ContentTooLarge', 'UnsupportedMediaType', 'ValidationFailed'),
      },
    }),
    show: () => ({
      operationId: operationId('show'),
      tags,
      summary: `Show a ${name}`,
      parameters: [...view, ifNoneMatchParameter, ifMatchParameter],
      responses: {
        [SUCCESS]: record(`The ${name}`, {}, shown),
        '304': { description: `The client's copy is current (\`If-None-Match\`)`, headers: { ETag: etag } },
        ...problems(...(view.length > 0 ? (['BadRequest'] as const) : []), 'NotFound', 'PreconditionFailed'),
      },
    }),
    update: () => ({
      operationId: operationId('update'),
      tags,
      summary: `Update a ${name}`,
      description: `Changes only the fields sent; \`{}\` changes nothing. A ${name} that does not exist is 404 whatever the body.`,
      parameters: [ifMatchParameter],
      requestBody: requestBody(compiled, names.updateInput, 'The fields to change.'),
      responses: {
        [SUCCESS]: record(`The whole ${name} after the change`),
        ...problems(
          'BadRequest',
          'NotFound',
          'PreconditionFailed',
          'ContentTooLarge',
          'UnsupportedMediaType',
          'ValidationFailed',
        ),
      },
    }),
    destroy: () => ({
      operationId: operationId('destroy'),
      tags,
      summary: `Delete a ${name}`,
      description: `Ids are never reused; deleting again is 404.${referenced ? ` A ${name} that other records still refer to is 409, unless their relation cascades.` : ''}`,
      parameters: [ifMatchParameter],
      responses: {
        [SUCCESS]: { description: `The ${name} was deleted` },
        ...problems('NotFound', 'PreconditionFailed', ...(referenced ? (['Conflict'] as const) : [])),
      },
    }),
  };
  // Listed as readers expect them: GET first, then the writes.
  for (const spec of [...ACTIONS].sort((a, b) => READING_ORDER.indexOf(a.method) - READING_ORDER.indexOf(b.method))) {
    if (!compiled.enabled.has(spec.name)) continue;
    const { responses, ...operation } = operations[spec.name]();
    const { [SUCCESS]: success, ...others } = responses;
    const item = { collection, member, stats, events }[spec.target];
    item[spec.method.toLowerCase()] = { ...operation, responses: { [String(spec.status)]: success, ...others } };
  }

  // Both paths exist even when every action on one is disabled: they answer 405, not 404.
  const items: Record<string, Record<string, unknown>> = { [`/${path}`]: collection, [`/${path}/{id}`]: member };
  if (compiled.enabled.has('stats')) items[targetPath('stats', path)] = stats;
  if (compiled.enabled.has('events')) items[targetPath('events', path)] = events;
  return items;
}
