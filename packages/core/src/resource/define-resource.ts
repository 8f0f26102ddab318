import { type CompiledResource, compile } from './compile.js';
import type { Relations, Resource, ResourceOptions } from './options.js';

const KNOWN_OPTIONS = new Set([
  'name',
  'plural',
  'path',
  'model',
  'types',
  'fields',
  'defaultSort',
  'perPage',
  'bodyLimit',
  'actions',
  'hooks',
  'steps',
  'store',
  'count',
  'limits',
  'id',
  'timestamps',
  'unique',
  'indexes',
  'defaults',
  'relations',
  'pagination',
]);
const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const compiled = new WeakMap<Resource, CompiledResource>();

/**
 * English plural of a simple noun; irregular ones are set with the `plural` option.
 *
 * @example
 * ```ts
 * pluralize('book'); // 'books'
 * pluralize('category'); // 'categories'
 * ```
 */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * Declares a resource: a model class whose fields carry class-validator decorators, and
 * optional rules, hooks and steps. The result is mounted with `createApi` or an adapter.
 * Mistakes in the declaration (an unknown field in an allow-list, a bad name) throw here, at
 * start-up, not on the first request.
 *
 * @example
 * ```ts
 * class Book {
 *   @IsString() @Length(1, 500) name!: string;
 *   @IsString() @Length(1, 500) author!: string;
 * }
 * export const books = defineResource({ name: 'book', model: Book });
 * ```
 */
export function defineResource<
  M extends object,
  S = Record<string, unknown>,
  N extends string = string,
  P extends string = string,
  // biome-ignore lint/complexity/noBannedTypes: no relations by default
  R extends Relations = {},
>(options: ResourceOptions<M, S, R> & { name: N; plural?: P }): Resource<M, S, N, P, R> {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`defineResource: unknown option "${key}"`);
  }
  const plural = options.plural ?? pluralize(options.name);
  const path = options.path ?? plural;
  for (const [what, value] of [
    ['name', options.name],
    ['plural', plural],
    ['path', path],
  ] as const) {
    if (typeof value !== 'string' || !NAME.test(value)) {
      throw new TypeError(
        `defineResource: ${what} must be a word of letters, digits, "-" or "_" (got ${JSON.stringify(value)})`,
      );
    }
  }
  if (typeof options.model !== 'function') throw new TypeError('defineResource: model must be a class');

  const resource: Resource<M, S, N, P, R> = Object.freeze({
    name: options.name,
    plural: plural as P,
    path,
    model: options.model,
    options,
    relations: (options.relations ?? {}) as R,
  });
  compiled.set(resource as unknown as Resource, compile(resource as unknown as Resource));
  return resource;
}

/**
 * The compiled form of a resource made by {@link defineResource}: its schema, allow-lists and
 * hooks as the request handling uses them. For tools built on the core (OpenAPI, stores).
 *
 * @example
 * ```ts
 * compiledResource(books).schema.attributes.map((attribute) => attribute.name); // ['id', 'name', 'author']
 * ```
 */
export function compiledResource<M, S>(resource: Resource<M, S>): CompiledResource {
  const result = compiled.get(resource as unknown as Resource);
  if (!result) throw new TypeError('Not a resource: create it with defineResource()');
  return result;
}
