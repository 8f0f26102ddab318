import type { Tenancy } from '../access/declare.js';
import type { Authenticate } from '../http/bearer-jwt.js';
import { compiledResource } from '../resource/define-resource.js';
import type { Resource } from '../resource/options.js';
import { describeOperationAccess } from './access-operations.js';
import { describeFieldAccess, serverSetFields, withServerSet } from './access-schemas.js';
import { type BulkNames, describeBulkWrites } from './bulk-operations.js';
import { resourcePaths, type SchemaNames } from './operations.js';
import { problemResponses, problemSchemas } from './problems.js';
import { sparseRecord } from './query-parameters.js';
import { conflictingDestroys, describeForeignKeys, foreignKeys, relationsOf, withRelations } from './relations.js';
import { type JsonSchema, resourceSchemas } from './schemas.js';
import { checkSecurity, securityOf } from './security.js';

/**
 * Options of {@link openApiDocument}.
 *
 * @example
 * ```ts
 * const options: OpenApiOptions = { title: 'Books API', version: '2.1.0', basePath: '/api' };
 * ```
 */
export interface OpenApiOptions {
  /** `info.title`. Default `API`. */
  title?: string;
  /** `info.version`, the version of your API (not of the library). Default `1.0.0`. */
  version?: string;
  /** `info.description`; a default one explains the conventions shared by every resource. */
  description?: string;
  /** Where the resources are mounted, e.g. `/api`: the document's server URL. Default: the root, `/`. */
  basePath?: string;
  /** `info.license`, the license of your API, e.g. `{ name: 'MIT', identifier: 'MIT' }`. */
  license?: { name: string; identifier?: string; url?: string };
  /**
   * `components.securitySchemes`: how clients authenticate, e.g.
   * `{ bearer: { type: 'http', scheme: 'bearer' } }`. Default: with `authenticate`, the
   * `bearer` scheme (`bearerFormat: 'JWT'`); else none.
   */
  securitySchemes?: Record<string, JsonSchema>;
  /**
   * The security requirements of every operation, e.g. `[{ bearer: [] }]`. Default: with
   * `authenticate`, any one of the declared schemes (`[{ bearer: [] }]`); else `[]`, none, said
   * explicitly (a hook of yours may still answer 401, the `default` response).
   */
  security?: Record<string, string[]>[];
  /**
   * The API's `authenticate` (`createApi` passes its own; `true` says the API has one): every
   * operation then documents 401 and 403 and requires the security above, and the actions a
   * resource lets anonymous callers take (`access.anonymous`) make it optional.
   */
  authenticate?: Authenticate | boolean;
  /** The API's `tenancy` (`createApi` passes its own): each resource's tenant field is server-set, read-only. */
  tenancy?: Tenancy;
}

/**
 * An OpenAPI 3.1 document, as {@link openApiDocument} builds it.
 *
 * @example
 * ```ts
 * const document: OpenApiDocument = openApiDocument([books]);
 * Object.keys(document.paths); // ['/books', '/books/{id}']
 * ```
 */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: OpenApiOptions['license'] };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes?: Record<string, JsonSchema>;
  };
}

const DESCRIPTION = `Every resource answers JSON. Single records come under the singular key (\`{"book": {...}}\`), lists under the plural key. Errors are RFC 9457 \`application/problem+json\`; a 422 maps every offending field to its messages in \`errors\`. A method a path does not serve answers 405 with \`Allow\`; an unknown path 404. Paths are spelled exactly as listed: case-sensitive, without a trailing slash.`;

const pascal = (word: string) =>
  word
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');

/** `name`, or `name2`, `name3`... whichever is not taken yet; marks it taken. */
function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  taken.add(candidate);
  return candidate;
}

/** The component names of a bulk resource's lists (`IssueList`, `IssueCreateList`...), marked taken. */
function bulkNames(base: string, taken: Set<string>): BulkNames {
  const [list, createList, updateList, updateEntry] = ['List', 'CreateList', 'UpdateList', 'UpdateEntry'].map(
    (suffix) => unique(`${base}${suffix}`, taken),
  ) as [string, string, string, string];
  return { list, createList, updateList, updateEntry };
}

/**
 * Builds the OpenAPI 3.1 document of a set of resources from their declarations: per resource a
 * record schema, a create-body and an update-body schema (from the class-validator decorators and
 * the field allow-lists), the enabled operations with their exact statuses, every index
 * parameter, the pagination headers and every problem response. A resource with relations gets
 * `include` on show and index and a schema of the record with what it adds; each relation's
 * target must be among `resources` (else this throws, as `createApi` does). With `authenticate` and
 * `tenancy` (as `createApi` passes them) it describes the access model too: security, 401 and
 * 403, server-set and role-restricted fields. A resource with `bulk` gets the list form of POST
 * (`oneOf` one record or a list), `PATCH` and `DELETE` on the collection; one with `upsert`, the
 * `upsert` parameter of POST. `createApi` serves it at `<base>/openapi.json`;
 * call this to write it to a file or feed a code generator.
 *
 * @example
 * ```ts
 * const document = openApiDocument([books], { title: 'Books API', version: '2.1.0', basePath: '/api' });
 * writeFileSync('openapi.json', JSON.stringify(document, null, 2));
 * ```
 */
export function openApiDocument(
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state are accepted
  resources: readonly Resource<any, any>[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  checkSecurity(options);
  const { securitySchemes, security } = securityOf(options, Boolean(options.authenticate));
  const access = { authenticates: Boolean(options.authenticate), security };
  const schemas: Record<string, JsonSchema> = { ...problemSchemas };
  const taken = new Set(Object.keys(schemas));
  const operationIds = new Set<string>();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: OpenApiDocument['tags'] = [];

  // Names first: a relation refers to its target's record schema.
  const namesOf = new Map<Resource, SchemaNames & { bulk?: BulkNames }>();
  const relations = relationsOf(resources);
  for (const resource of resources) {
    const base = unique(pascal(resource.name), taken);
    namesOf.set(resource, {
      output: base,
      createInput: unique(`${base}CreateInput`, taken),
      updateInput: unique(`${base}UpdateInput`, taken),
      ...(relations.get(resource)?.length ? { withRelations: unique(`${base}WithRelations`, taken) } : {}),
      ...(compiledResource(resource).query.fields.size > 0 ? { fields: unique(`${base}Fields`, taken) } : {}),
      ...(compiledResource(resource).bulk ? { bulk: bulkNames(base, taken) } : {}),
    });
  }
  const keys = foreignKeys(relations);
  const referenced = conflictingDestroys(keys);
  const recordOf = (resource: Resource) => (namesOf.get(resource) as SchemaNames).output;

  for (const resource of resources) {
    const compiled = compiledResource(resource);
    const names = namesOf.get(resource) as SchemaNames & { bulk?: BulkNames };
    const base = names.output;
    const related = relations.get(resource) ?? [];
    // Fields set from the caller's principal are read-only, as `createApi` makes them.
    const serverSet = serverSetFields(compiled, options.tenancy);
    const built = resourceSchemas(withServerSet(compiled, serverSet));
    describeForeignKeys([built.output, built.createInput, built.updateInput], resource, keys);
    describeFieldAccess(compiled, built, serverSet, options.tenancy);
    schemas[names.output] = { title: base, ...built.output };
    // A body schema only for an action that takes it: no component is left unused.
    if (compiled.enabled.has('create'))
      schemas[names.createInput] = { title: `${base} (create)`, ...built.createInput };
    if (compiled.enabled.has('update'))
      schemas[names.updateInput] = { title: `${base} (update)`, ...built.updateInput };
    const reads = compiled.enabled.has('show') || compiled.enabled.has('index');
    const included = names.withRelations ? withRelations(compiled, related, names.output, recordOf) : undefined;
    if (names.withRelations && reads) schemas[names.withRelations] = { title: `${base} (show, index)`, ...included };
    if (names.fields && reads) {
      schemas[names.fields] = { title: `${base} (fields)`, ...sparseRecord(compiled, built.output, included) };
    }

    // Actions on several records are named after the plural: `indexIssues`, `updateIssues`, `watchIssues`.
    const operationId = (action: string, many = action === 'index' || action === 'stats' || action === 'watch') =>
      unique(`${action}${many ? pascal(resource.plural) : base}`, operationIds);
    const links = { relations: related, referenced: referenced.has(resource) };
    const items = resourcePaths(compiled, names, operationId, links);
    const bulkContext = { names, updateInput: built.updateInput, operationId, referenced: links.referenced };
    Object.assign(schemas, describeBulkWrites(compiled, items, bulkContext));
    describeOperationAccess(compiled, items, access, related);
    Object.assign(paths, items);
    tags.push({ name: resource.plural, description: `The ${resource.plural} at \`/${resource.path}\`` });
  }

  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const { responses, unusedSchemas } = usedProblems(paths, schemas);
  for (const name of unusedSchemas) delete schemas[name];
  return {
    openapi: '3.1.1',
    info: {
      title: options.title ?? 'API',
      version: options.version ?? '1.0.0',
      description: options.description ?? DESCRIPTION,
      ...(options.license ? { license: { ...options.license } } : {}),
    },
    servers: [{ url: basePath || '/' }],
    security: structuredClone(security),
    tags,
    paths,
    // A copy, so that a caller editing its document cannot change the next one.
    components: structuredClone({
      schemas,
      responses,
      ...(securitySchemes ? { securitySchemes } : {}),
    }),
  };
}

/** The shared problem responses the operations refer to, and the problem schemas none of those needs. */
function usedProblems(
  paths: Record<string, unknown>,
  schemas: Record<string, JsonSchema>,
): {
  responses: Record<string, JsonSchema>;
  unusedSchemas: string[];
} {
  const text = JSON.stringify(paths);
  const responses = Object.fromEntries(
    Object.entries(problemResponses).filter(([name]) => text.includes(`"#/components/responses/${name}"`)),
  );
  const needed = JSON.stringify(responses);
  const unusedSchemas = Object.keys(problemSchemas).filter(
    (name) => !needed.includes(`"#/components/schemas/${name}"`),
  );
  // A record schema only the record with its relations refers to is still used; one that
  // nothing refers to (show and index disabled, no create, no update, no relation to it) is not.
  const used = JSON.stringify({ paths, responses, schemas: Object.values(schemas) });
  for (const name of Object.keys(schemas)) {
    if (!(name in problemSchemas) && !used.includes(`"#/components/schemas/${name}"`)) unusedSchemas.push(name);
  }
  return { responses, unusedSchemas };
}
