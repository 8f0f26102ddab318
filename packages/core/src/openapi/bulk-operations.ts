import type { CompiledResource } from '../resource/compile.js';
import type { SchemaNames } from './operations.js';
import { collectionIfMatch, idParameter } from './parameters.js';
import { problemResponsesOf } from './problem-refs.js';
import type { JsonSchema } from './schemas.js';

// What `bulk` and `upsert` add to a resource's operations (CONTRACT part 4, "Bulk writes"): the
// list form of POST beside the single one, PATCH and DELETE on the collection, and `upsert=`.

/** The component names of a resource's bulk bodies and answers. */
export interface BulkNames {
  /** `{"<plural>": [<record>, ...]}`: what a bulk create or update answers. */
  readonly list: string;
  /** `{"<plural>": [<create body>, ...]}`: a bulk create's body. */
  readonly createList: string;
  /** `{"<plural>": [<entry>, ...]}`: a bulk update's body. */
  readonly updateList: string;
  /** One entry of a bulk update: `id`, `_etag` and the fields to change. */
  readonly updateEntry: string;
}

/** What {@link describeBulkWrites} needs beside the resource. */
export interface BulkContext {
  readonly names: SchemaNames & { readonly bulk?: BulkNames };
  /** The update body's schema, whose fields an entry of a bulk update takes. */
  readonly updateInput: JsonSchema;
  /** The operation id of an action (`many`: named after the plural, `updateIssues`). */
  readonly operationId: (action: string, many?: boolean) => string;
  /** Whether a destroy may be refused with 409 because other records refer to the record. */
  readonly referenced: boolean;
}

type Operation = JsonSchema & { responses: Record<string, unknown>; parameters?: JsonSchema[] };

const JSON_MEDIA_TYPE = 'application/json';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `{"<plural>": [...]}` holding 1 to `max` of `items`, nothing else. */
function listOf(plural: string, items: JsonSchema, max: number): JsonSchema {
  return {
    type: 'object',
    required: [plural],
    properties: { [plural]: { type: 'array', items, minItems: 1, maxItems: max } },
    additionalProperties: false,
  };
}

/** The `upsert` parameter of a create, on a resource declaring `upsert`. */
function upsertParameter(compiled: CompiledResource): JsonSchema {
  const { name, plural } = compiled.resource;
  const keys = [...compiled.upsert];
  return {
    name: 'upsert',
    in: 'query',
    description: `Create or update by a unique attribute (${keys.map((key) => `\`${key}\``).join(', ')}): the caller's ${name} with the value sent for it is updated (through the update's rules, the fields sent changing), else one is created (every required field must then be sent). The body is then wrapped, \`{"${name}": {...}}\`${compiled.bulk ? `, or the list \`{"${plural}": [...]}\`, each entry so` : ''}; the answer has no \`Location\` or \`ETag\`. Any other value is 400.`,
    schema: { type: 'string', enum: keys },
  };
}

/** Adds `upsert` to the create, and the list form to its body and answer. */
function describeCreate(compiled: CompiledResource, post: Operation, context: BulkContext): void {
  const { name, plural } = compiled.resource;
  const upsert = compiled.upsert.size > 0;
  const success = post.responses['200'] as JsonSchema & { headers: Record<string, JsonSchema> };
  const { Location: location, ETag: etag } = success.headers;
  if (upsert) {
    const parameters = post.parameters ?? [];
    const header = parameters.findIndex((parameter) => parameter.in === 'header');
    parameters.splice(header === -1 ? parameters.length : header, 0, upsertParameter(compiled));
    post.parameters = parameters;
    post.summary = `Create a ${name}, or update it by ${[...compiled.upsert].join(' or ')}`;
    success.description = `The ${name} as stored: created, or updated with \`upsert\``;
    // An upserted record is answered without a Location or an ETag, whether it was created or updated.
    success.headers = {
      Location: { ...location, description: `The path of the new ${name} (not sent with \`upsert\`)`, required: false },
      ETag: { ...etag, description: `The ${name}'s entity tag (not sent with \`upsert\`)`, required: false },
    };
  }
  const bulk = context.names.bulk;
  if (!bulk || !compiled.bulk) return;
  const { max } = compiled.bulk;
  if (!upsert) post.summary = `Create a ${name}, or several`;
  post.description = `Creates one ${name} (\`{"${name}": {...}}\`), or 1 to ${max} at once (\`{"${plural}": [{...}, ...]}\`), all or none, answered in the order sent. A list's 422 names each offending field by JSON Pointer into the body (\`/${plural}/2/<field>\`); an empty or too long list names \`/${plural}\`.`;
  const requestBody = post.requestBody as { description: string; content: Record<string, { schema: JsonSchema }> };
  requestBody.description = `${requestBody.description} Several: a list under \`${plural}\`, each entry one ${name}'s fields.`;
  const body = requestBody.content[JSON_MEDIA_TYPE];
  const answer = (success.content as Record<string, { schema: JsonSchema }>)[JSON_MEDIA_TYPE];
  if (!body || !answer) return;
  body.schema = {
    oneOf: [...((body.schema.oneOf as JsonSchema[] | undefined) ?? [body.schema]), ref(bulk.createList)],
  };
  answer.schema = { oneOf: [answer.schema, ref(bulk.list)] };
  success.description = `The ${name} as stored${upsert ? ' (created, or updated with `upsert`)' : ''}, or the ${plural}, in the order sent`;
  success.headers = {
    Location: {
      ...location,
      description: `The path of the new ${name}, when one is created${upsert ? ' without `upsert`' : ''}`,
      required: false,
    },
    ETag: {
      ...etag,
      description: `The ${name}'s entity tag, when one is created${upsert ? ' without `upsert`' : ''}`,
      required: false,
    },
  };
  post.responses = { ...post.responses, ...problemResponsesOf('BulkValidationFailed') };
}

/** `PATCH /<path>`: partial updates of several records, each naming its `id`. */
function updateMany(compiled: CompiledResource, bulk: BulkNames, context: BulkContext): Operation {
  const { name, plural } = compiled.resource;
  const max = compiled.bulk?.max;
  return {
    operationId: context.operationId('update', true),
    tags: [plural],
    summary: `Update several ${plural}`,
    parameters: [collectionIfMatch],
    description: `Each entry changes one ${name} as an update does (only the fields sent), all or none, answered in the order sent: 1 to ${max} entries. An id that is not visible is 422 \`does not exist\` on \`/${plural}/<index>/id\`; a 422 or 403 names each offending field by JSON Pointer into the body.`,
    requestBody: {
      required: true,
      description: `The changes: per ${name}, its \`id\`, optionally \`_etag\` (its \`If-Match\`), and the fields to change.`,
      content: { [JSON_MEDIA_TYPE]: { schema: ref(bulk.updateList) } },
    },
    responses: {
      '200': {
        description: `The whole ${plural} after the change, in the order sent`,
        content: { [JSON_MEDIA_TYPE]: { schema: ref(bulk.list) } },
      },
      ...problemResponsesOf(
        'BadRequest',
        'PreconditionFailed',
        'ContentTooLarge',
        'UnsupportedMediaType',
        'BulkValidationFailed',
      ),
    },
  };
}

/** `DELETE /<path>?filter[id][]=1&filter[id][]=2`: several records, all or none. */
function destroyMany(compiled: CompiledResource, context: BulkContext): Operation {
  const { name, plural } = compiled.resource;
  const max = compiled.bulk?.max;
  return {
    operationId: context.operationId('destroy', true),
    tags: [plural],
    summary: `Delete several ${plural}`,
    description: `Deletes the ${plural} of the ids listed, all or none. Any other parameter is 400; an id that is not visible is 404 naming it, and nothing is deleted.${context.referenced ? ` A ${name} that other records still refer to is 409, unless their relation cascades.` : ''}`,
    parameters: [
      {
        name: 'filter[id][]',
        in: 'query',
        required: true,
        description: `The ids of the ${plural} to delete, 1 to ${max}: repeat the parameter, \`filter[id][]=1&filter[id][]=2\`.`,
        style: 'form',
        explode: true,
        schema: { type: 'array', items: idParameter(compiled).schema as JsonSchema, minItems: 1, maxItems: max },
      },
    ],
    responses: {
      '204': { description: `The ${plural} were deleted` },
      ...problemResponsesOf('BadRequest', 'NotFound', ...(context.referenced ? (['Conflict'] as const) : [])),
    },
  };
}

/**
 * Adds what `bulk` and `upsert` declare to a resource's path items: on `POST /<path>` the
 * `upsert` parameter (the declared keys) and, with `bulk`, the list form of the body and of the
 * answer (`oneOf` the single and the list forms); with `bulk`, `PATCH /<path>` (`update<Plural>`)
 * and `DELETE /<path>` with `filter[id][]` (`destroy<Plural>`), for the actions enabled. Answers
 * the component schemas the operations refer to.
 *
 * @example
 * ```ts
 * const items = resourcePaths(compiled, names, operationId);
 * Object.assign(schemas, describeBulkWrites(compiled, items, { names, updateInput, operationId, referenced: false }));
 * Object.keys(items['/issues'] ?? {}); // ['description', 'get', 'post', 'patch', 'delete']
 * ```
 */
export function describeBulkWrites(
  compiled: CompiledResource,
  items: Record<string, Record<string, unknown>>,
  context: BulkContext,
): Record<string, JsonSchema> {
  const { plural, path } = compiled.resource;
  const collection = items[`/${path}`] as Record<string, unknown>;
  const post = collection.post as Operation | undefined;
  if (post) describeCreate(compiled, post, context);
  const bulk = context.names.bulk;
  if (!bulk || !compiled.bulk) return {};

  const { max } = compiled.bulk;
  const { output, createInput } = context.names;
  const schemas: Record<string, JsonSchema> = {};
  if (compiled.enabled.has('create') || compiled.enabled.has('update')) {
    schemas[bulk.list] = { title: `${output} (list)`, ...listOf(plural, ref(output), max) };
  }
  if (compiled.enabled.has('create')) {
    schemas[bulk.createList] = { title: `${output} (create, list)`, ...listOf(plural, ref(createInput), max) };
  }
  if (compiled.enabled.has('update')) {
    const properties = context.updateInput.properties as Record<string, JsonSchema>;
    schemas[bulk.updateEntry] = {
      title: `${output} (update, list entry)`,
      type: 'object',
      required: ['id'],
      properties: {
        id: {
          ...(idParameter(compiled).schema as JsonSchema),
          description: `The id of the ${compiled.resource.name} to change`,
        },
        _etag: {
          type: 'string',
          description: `The entity tag the ${compiled.resource.name} must still have (its \`If-Match\`: the \`ETag\` of a show or an update); else the whole request is 412 and nothing changes`,
        },
        ...properties,
      },
      additionalProperties: false,
    };
    schemas[bulk.updateList] = { title: `${output} (update, list)`, ...listOf(plural, ref(bulk.updateEntry), max) };
    collection.patch = updateMany(compiled, bulk, context);
  }
  if (compiled.enabled.has('destroy')) collection.delete = destroyMany(compiled, context);
  return schemas;
}
