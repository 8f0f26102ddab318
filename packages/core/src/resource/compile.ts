import { ACTION_NAMES, type ActionName } from '../contract/actions.js';
import { DEFAULT_LIMITS, ENCODED_CODE_POINT, type Limits } from '../contract/limits.js';
import { type Operator, operatorsFor } from '../contract/operators.js';
import { parseIndexQuery } from '../query/parse-query.js';
import type { QueryRules } from '../query/resolve-query.js';
import { inferAttributes, type TypeDeclaration } from '../schema/infer-attributes.js';
import type { AttributeSchema, CollectionSchema } from '../schema/types.js';
import {
  archiveField,
  bulkOf,
  checkedPerPage,
  countRules,
  optedIn,
  searchFields,
  upsertKeys,
} from './declared-options.js';
import type { AroundHook, ErrorHook, Hook, Hooks, OneOrMore } from './hooks.js';
import { declaredIndexes, isIndexable } from './indexes.js';
import type { InputRules } from './input/validate-input.js';
import type { Relations, Resource, ResourceOptions } from './options.js';
import { idSetsOf } from './relations.js';
import { type ResourceServerValues, serverValuesOf, withModelAttributes } from './server-values.js';
import { compileStats, type StatsRules } from './stats.js';
import { composeSteps, type RunSteps } from './steps.js';

/** Hooks of every kind, flattened into one list per action (`all` first). */
export interface HooksByAction {
  readonly before: Readonly<Record<ActionName, readonly Hook[]>>;
  readonly after: Readonly<Record<ActionName, readonly Hook[]>>;
  readonly around: Readonly<Record<ActionName, readonly AroundHook[]>>;
  readonly error: readonly ErrorHook[];
}

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
  readonly steps: RunSteps;
  readonly hooks: HooksByAction;
  /** The declared relations, by name (their targets are found when an API mounts the resource). */
  readonly relations: Relations;
  /** What the server sets on writes: a uuid id, timestamps, defaults. */
  readonly serverValues: ResourceServerValues;
  /** The field destroy sets instead of deleting (`archive`), if any. */
  readonly archive: string | undefined;
  /** What statistics may name (`stats`), when the resource serves them. */
  readonly stats: StatsRules | undefined;
  /** The most records a bulk write takes (`bulk`), if any; the keys to upsert by (`upsert`). */
  readonly bulk: { readonly max: number } | undefined;
  readonly upsert: ReadonlySet<string>;
  /** The fields holding the ids of a many-to-many relation (`labelIds`), with the most ids each holds. */
  readonly idSets: ReadonlyMap<string, { readonly relation: string; readonly limit: number }>;
}

type AnyOptions = ResourceOptions<Record<string, unknown>, Record<string, unknown>>;

/** Checks a resource's declaration against its model and compiles it; throws on a mistake. */
export function compile(resource: Resource): CompiledResource {
  const options = resource.options as AnyOptions;
  const inferred = inferAttributes(
    options.model,
    options.types as Record<string, TypeDeclaration> | undefined,
    options.id,
  );
  const serverValues = serverValuesOf(resource.name, options, inferred);
  const list = withModelAttributes(resource.name, inferred, serverValues, options.defaults);
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
  const archive = archiveField(resource.name, options.archive, attributes);
  const search = searchFields(resource.name, options.search, attributes);
  const readOnly = new Set([
    'id',
    ...serverValues.timestamps,
    ...pick('readOnly', fields.readOnly, []),
    ...(archive ? [archive] : []),
  ]);
  const writable = all.filter((name) => !readOnly.has(name));
  const shown = ['id', ...pick('show', fields.show, all).filter((name) => name !== 'id')];
  // A field responses hide cannot be filtered or sorted on unless a list names it: else its
  // values could be guessed one filter (or one sort) at a time. JSON values are neither.
  const comparable = shown.filter((name) => attributes.get(name)?.type !== 'json');
  const filterable = pick('filter', fields.filter, comparable);
  const sortable = pick('sort', fields.sort, comparable);
  for (const name of [...filterable, ...sortable]) {
    if (attributes.get(name)?.type === 'json') {
      throw new TypeError(
        `defineResource(${resource.name}): "${name}" holds JSON, which cannot be filtered or sorted on`,
      );
    }
  }
  const unique = (options.unique ?? []).map((entry) => {
    const set = typeof entry === 'string' ? [entry] : [...(entry as string[])];
    return pick('unique', set, []);
  });
  // Hidden fields keep their index: a scope step queries them (`ownerId`, `deleted`). Long text
  // gets none: an index entry has a size limit that a valid value must never hit.
  const indexed = new Set([...(fields.filter ?? all), ...(fields.sort ?? all)]);
  const indexes = declaredIndexes(resource.name, options.indexes, attributes);
  const perPage = checkedPerPage(resource.name, options.perPage);
  const fallbackSort = list[0]?.type === 'uuid' && attributes.has('createdAt') ? '-createdAt' : '-id';
  const defaultSort = parseIndexQuery(`sort=${encodeURIComponent(options.defaultSort ?? fallbackSort)}`).sort;
  const unsorted = defaultSort?.find((key) => !attributes.has(key.attribute))?.attribute;
  if (unsorted) throw new TypeError(`defineResource(${resource.name}): defaultSort names "${unsorted}", not a field`);
  const limits = limitsOf(options.limits, filterable, attributes);
  const inputRules = (allowed: readonly string[], partial: boolean): InputRules => ({
    model: options.model,
    wrapper: resource.name,
    attributes,
    writable: new Set(allowed.filter((name) => !readOnly.has(name))),
    readOnly,
    partial,
    unknownFields: limits.unknownFields,
  });
  const relations = options.relations ?? {};
  // The ids of many-to-many relations are shown (`fields=` may name them), never filtered or sorted on.
  const idSets = idSetsOf(resource.name, relations, attributes);
  const shownAll = [...shown, ...idSets.keys()];
  return {
    resource,
    schema: {
      name: resource.plural,
      attributes: list,
      indexed: [...indexed].filter((name) => name !== 'id' && isIndexable(attributes.get(name))),
      unique,
      ...(indexes.length > 0 ? { indexes } : {}),
      ...(search.length > 0 ? { search } : {}),
      ...(options.live ? { live: true } : {}),
      ...(options.keepCount ? { keepCount: true } : {}),
    },
    attributes,
    query: {
      attributes,
      filterable: new Set(filterable),
      sortable: new Set(sortable),
      defaultSort,
      perPage,
      ...countRules(resource.name, options),
      relations: new Set(Object.keys(relations)),
      fields: new Set(shownAll),
      operators: operatorsOf(resource.name, filterable, attributes, fields.operators),
      pagination: options.pagination ?? 'page',
      ...(search.length > 0 ? { search } : {}),
    },
    create: inputRules(pick('create', fields.create, writable), false),
    update: inputRules(pick('update', fields.update, writable), true),
    shown: shownAll,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    limits,
    enabled: new Set(ACTION_NAMES.filter((a) => options.actions?.[a] !== false && optedIn(a, options))),
    steps: composeSteps(options.steps ?? {}),
    hooks: hooksByAction(options.hooks as Hooks | undefined),
    relations,
    serverValues,
    archive,
    stats: compileStats(resource.name, options.stats, attributes, shown),
    bulk: bulkOf(resource.name, options.bulk),
    upsert: upsertKeys(resource.name, options.upsert, unique),
    idSets,
  };
}

/**
 * The resource's limits. Its query string has room for one filter on any value its longest
 * filterable string may hold, percent-encoded, on top of `queryLength`: a value validation
 * accepts can always be filtered on (an unbounded string gets no room).
 */
function limitsOf(
  declared: Partial<Limits> | undefined,
  filterable: readonly string[],
  attributes: ReadonlyMap<string, AttributeSchema>,
): Limits {
  const limits = { ...DEFAULT_LIMITS, ...declared };
  let longest = 0;
  for (const name of filterable) {
    const { type, maxLength } = attributes.get(name) ?? {};
    if (type === 'string' && maxLength !== undefined && Number.isFinite(maxLength)) {
      longest = Math.max(longest, maxLength);
    }
  }
  return { ...limits, queryLength: limits.queryLength + ENCODED_CODE_POINT * longest };
}

/** The operators of each filterable attribute: the declared ones, checked against its type, or those of its type. */
function operatorsOf(
  name: string,
  filterable: readonly string[],
  attributes: ReadonlyMap<string, AttributeSchema>,
  declared: Readonly<Record<string, readonly Operator[] | undefined>> | undefined,
): Map<string, readonly Operator[]> {
  const operators = new Map<string, readonly Operator[]>();
  for (const field of filterable) {
    const attribute = attributes.get(field) as AttributeSchema;
    const possible = operatorsFor(attribute.type, attribute.nullable);
    const chosen = declared?.[field] ?? possible;
    for (const op of chosen) {
      if (!possible.includes(op)) {
        throw new TypeError(
          `defineResource(${name}): fields.operators.${field} names "${op}", which does not apply to a ${attribute.type}`,
        );
      }
    }
    operators.set(field, chosen);
  }
  return operators;
}

function asList<H>(value: OneOrMore<H> | undefined): H[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value as H];
}

/** Flattens `{ all, create, ... }` of each kind into one list per action, `all` hooks first. */
export function hooksByAction(hooks: Hooks | undefined): HooksByAction {
  const byAction = <H>(map: Partial<Record<ActionName | 'all', OneOrMore<H>>> | undefined) => {
    const result = {} as Record<ActionName, H[]>;
    for (const action of ACTION_NAMES) result[action] = [...asList(map?.all), ...asList(map?.[action])];
    return result;
  };
  return {
    before: byAction<Hook>(hooks?.before as never),
    after: byAction<Hook>(hooks?.after as never),
    around: byAction<AroundHook>(hooks?.around as never),
    error: asList(hooks?.error as OneOrMore<ErrorHook> | undefined),
  };
}
