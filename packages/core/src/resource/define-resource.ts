import { pluralize } from '../contract/plural.js';
import type { Scalar } from '../schema/types.js';
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
  'stats',
  'live',
  'bulk',
  'upsert',
  'hooks',
  'steps',
  'store',
  'count',
  'estimateCountsAbove',
  'keepCount',
  'limits',
  'id',
  'timestamps',
  'unique',
  'indexes',
  'defaults',
  'relations',
  'pagination',
  'access',
  'archive',
  'search',
]);
const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const compiled = new WeakMap<Resource, CompiledResource>();

/** What {@link defineResource} takes: the declaration, its literal names, and the attributes it gives a default. */
type Declaration<M, S, N extends string, P extends string, R extends Relations, D extends string> = ResourceOptions<
  M,
  S,
  R
> & { name: N; plural?: P; defaults?: { readonly [K in D]?: Scalar } };

/**
 * Declares a resource: a model class whose fields carry class-validator decorators, and
 * optional rules, hooks and steps. The result is mounted with `createApi` or an adapter.
 * Mistakes in the declaration (an unknown field in an allow-list, a bad name) throw here, at
 * start-up, not on the first request.
 *
 * The type of the result keeps the literal name, the relations and the attributes with a
 * default, for typed clients. Giving the type arguments yourself (`defineResource<Book, State>`)
 * loses them (TypeScript infers all type arguments or none): to type `ctx.state`, use
 * {@link defineResource.withState} instead.
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
  D extends keyof M & string = never,
>(options: Declaration<M, S, N, P, R, D>): Resource<M, S, N, P, R, D> {
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

  const resource: Resource<M, S, N, P, R, D> = Object.freeze({
    name: options.name,
    plural: plural as P,
    path,
    model: options.model,
    options,
    relations: (options.relations ?? {}) as R,
    defaults: (options.defaults ?? {}) as Readonly<Record<D, Scalar>>,
  });
  compiled.set(resource as unknown as Resource, compile(resource as unknown as Resource));
  return resource;
}

/**
 * `defineResource` with `ctx.state` typed as `S` in its hooks and steps, everything else
 * inferred from the declaration as `defineResource` infers it (the model, the literal name,
 * the relations, the attributes with a default). TypeScript cannot infer some type arguments
 * and take the others, so the state comes first, in a call of its own.
 *
 * @example
 * ```ts
 * interface State { user?: { id: number } }
 * export const books = defineResource.withState<State>()({
 *   name: 'book',
 *   model: Book,
 *   steps: { scope: (ctx) => ({ ownerId: ctx.state.user?.id ?? 0 }) },
 * });
 * ```
 */
defineResource.withState = function withState<S>() {
  return <
    M extends object,
    N extends string = string,
    P extends string = string,
    // biome-ignore lint/complexity/noBannedTypes: no relations by default
    R extends Relations = {},
    D extends keyof M & string = never,
  >(
    options: Declaration<M, S, N, P, R, D>,
  ): Resource<M, S, N, P, R, D> => defineResource<M, S, N, P, R, D>(options);
};

/**
 * The compiled form of a resource made by {@link defineResource}: its schema, allow-lists and
 * hooks as the request handling uses them. For tools built on the core (OpenAPI, stores).
 *
 * @example
 * ```ts
 * compiledResource(books).schema.attributes.map((attribute) => attribute.name); // ['id', 'name', 'author']
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: a resource of any model, state, names, relations and defaults (a list of several)
export function compiledResource(resource: Resource<any, any, any, any, any, any>): CompiledResource {
  const result = compiled.get(resource as unknown as Resource);
  if (!result) throw new TypeError('Not a resource: create it with defineResource()');
  return result;
}
