import type { InputRules } from '../body/validate-input.js';
import { DEFAULT_LIMITS, type Limits } from '../query/limits.js';
import { parseIndexQuery } from '../query/parse-query.js';
import type { QueryRules } from '../query/resolve-query.js';
import { inferAttributes } from '../schema/infer-attributes.js';
import type { AttributeSchema, AttributeType, CollectionSchema } from '../store/store.js';
import type { ActionName, AroundHook, Hook, HookMap, Resource, ResourceOptions, Steps } from './types.js';

/** The resource's declaration compiled into what the request handling uses. */
export interface CompiledResource {
  readonly resource: Resource;
  readonly schema: CollectionSchema;
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  readonly query: QueryRules;
  readonly create: InputRules;
  readonly update: InputRules;
  readonly shown: readonly string[];
  readonly bodyLimit: number;
  readonly limits: Limits;
  readonly enabled: ReadonlySet<ActionName>;
  readonly steps: Partial<Steps>;
  readonly hooks: {
    readonly before: Readonly<Record<ActionName, Hook[]>>;
    readonly after: Readonly<Record<ActionName, Hook[]>>;
    readonly around: Readonly<Record<ActionName, AroundHook[]>>;
  };
}

export const ACTIONS: readonly ActionName[] = ['create', 'update', 'destroy', 'show', 'index'];
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
>(options: ResourceOptions<M, S> & { name: N; plural?: P }): Resource<M, S, N, P> {
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

  const resource: Resource<M, S, N, P> = Object.freeze({
    name: options.name,
    plural: plural as P,
    path,
    model: options.model,
    options,
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

function compile(resource: Resource): CompiledResource {
  const options = resource.options as ResourceOptions<Record<string, unknown>, Record<string, unknown>>;
  const list = inferAttributes(options.model, options.types as Record<string, AttributeType> | undefined);
  const attributes = new Map(list.map((attribute) => [attribute.name, attribute]));
  const all = list.map((attribute) => attribute.name);
  const fields = options.fields ?? {};
  const pick = (rule: string, names: readonly string[] | undefined, fallback: readonly string[]): string[] => {
    for (const name of names ?? []) {
      if (!attributes.has(name)) {
        throw new TypeError(
          `defineResource(${resource.name}): fields.${rule} names "${name}", which is not a field of ${options.model.name}`,
        );
      }
    }
    return [...(names ?? fallback)];
  };
  const readOnly = new Set(['id', ...pick('readOnly', fields.readOnly, [])]);
  const writable = all.filter((name) => !readOnly.has(name));
  const filterable = pick('filter', fields.filter, all);
  const sortable = pick('sort', fields.sort, all);
  const shown = ['id', ...pick('show', fields.show, all).filter((name) => name !== 'id')];

  const perPage = { default: options.perPage?.default ?? 25, max: options.perPage?.max ?? 100 };
  if (
    !(
      Number.isSafeInteger(perPage.default) &&
      Number.isSafeInteger(perPage.max) &&
      perPage.default >= 1 &&
      perPage.default <= perPage.max
    )
  ) {
    throw new TypeError(
      `defineResource(${resource.name}): perPage needs 1 <= default <= max (got ${JSON.stringify(perPage)})`,
    );
  }
  const defaultSort = parseIndexQuery(`sort=${encodeURIComponent(options.defaultSort ?? '-id')}`).sort;
  for (const key of defaultSort ?? []) {
    if (!attributes.has(key.attribute)) {
      throw new TypeError(
        `defineResource(${resource.name}): defaultSort names "${key.attribute}", which is not a field`,
      );
    }
  }

  const inputRules = (allowed: readonly string[], partial: boolean): InputRules => ({
    model: options.model,
    wrapper: resource.name,
    attributes,
    writable: new Set(allowed.filter((name) => !readOnly.has(name))),
    readOnly,
    partial,
  });
  const enabled = new Set(ACTIONS.filter((action) => options.actions?.[action] !== false));
  const hooks = options.hooks ?? {};

  return {
    resource,
    schema: {
      name: resource.plural,
      attributes: list,
      indexed: [...new Set([...filterable, ...sortable])].filter((name) => name !== 'id'),
    },
    attributes,
    query: {
      attributes,
      filterable: new Set(filterable),
      sortable: new Set(sortable),
      defaultSort,
      perPage,
      count: options.count ?? true,
    },
    create: inputRules(pick('create', fields.create, writable), false),
    update: inputRules(pick('update', fields.update, writable), true),
    shown,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    enabled,
    steps: (options.steps ?? {}) as Partial<Steps>,
    hooks: {
      before: byAction(hooks.before as HookMap<Hook> | undefined),
      after: byAction(hooks.after as HookMap<Hook> | undefined),
      around: byAction(hooks.around as HookMap<AroundHook> | undefined),
    },
  };
}

/** Flattens `{ all, create, ... }` into one list per action, `all` hooks first. */
function byAction<H>(map: HookMap<H> | undefined): Record<ActionName, H[]> {
  const asList = (value: H | readonly H[] | undefined): H[] =>
    value === undefined ? [] : Array.isArray(value) ? [...value] : [value as H];
  const result = {} as Record<ActionName, H[]>;
  for (const action of ACTIONS) result[action] = [...asList(map?.all), ...asList(map?.[action])];
  return result;
}
