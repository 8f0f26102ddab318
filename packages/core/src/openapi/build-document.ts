import { compiledResource } from '../resource/define-resource.js';
import type { Resource } from '../resource/options.js';
import { resourcePaths, type SchemaNames } from './operations.js';
import { problemResponses, problemSchemas } from './problems.js';
import { type JsonSchema, resourceSchemas } from './schemas.js';

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
  /** Where the resources are mounted, e.g. `/api`: the document's server URL. Default: the root. */
  basePath?: string;
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
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, JsonSchema> };
}

const DESCRIPTION = `Every resource answers JSON. Single records come under the singular key (\`{"book": {...}}\`), lists under the plural key. Errors are RFC 9457 \`application/problem+json\`; a 422 maps every offending field to its messages in \`errors\`. A method a path does not serve answers 405 with \`Allow\`; an unknown path 404.`;

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

/**
 * Builds the OpenAPI 3.1 document of a set of resources from their declarations: per resource a
 * record schema, a create-body and an update-body schema (from the class-validator decorators and
 * the field allow-lists), the enabled operations with their exact statuses, every index
 * parameter, the pagination headers and every problem response. `createApi` serves it at
 * `<base>/openapi.json`; call this to write it to a file or feed a code generator.
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
  const schemas: Record<string, JsonSchema> = { ...problemSchemas };
  const taken = new Set(Object.keys(schemas));
  const operationIds = new Set<string>();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: OpenApiDocument['tags'] = [];

  for (const resource of resources) {
    const compiled = compiledResource(resource);
    const base = unique(pascal(resource.name), taken);
    const names: SchemaNames = {
      output: base,
      createInput: unique(`${base}CreateInput`, taken),
      updateInput: unique(`${base}UpdateInput`, taken),
    };
    const built = resourceSchemas(compiled);
    schemas[names.output] = { title: base, ...built.output };
    schemas[names.createInput] = { title: `${base} (create)`, ...built.createInput };
    schemas[names.updateInput] = { title: `${base} (update)`, ...built.updateInput };

    const operationId = (action: string) =>
      unique(`${action}${action === 'index' ? pascal(resource.plural) : base}`, operationIds);
    Object.assign(paths, resourcePaths(compiled, names, operationId));
    tags.push({ name: resource.plural, description: `The ${resource.plural} at \`/${resource.path}\`` });
  }

  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  return {
    openapi: '3.1.1',
    info: {
      title: options.title ?? 'API',
      version: options.version ?? '1.0.0',
      description: options.description ?? DESCRIPTION,
    },
    ...(basePath ? { servers: [{ url: basePath }] } : {}),
    tags,
    paths,
    // A copy, so that a caller editing its document cannot change the next one.
    components: structuredClone({ schemas, responses: problemResponses }),
  };
}
