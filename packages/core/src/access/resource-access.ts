import type { ActionName } from '../contract/actions.js';
import type { QueryRules } from '../query/resolve-query.js';
import type { Scalar } from '../schema/types.js';
import type { Condition } from '../store/store.js';
import type { AccessRules, FieldAccess, Rule, Tenancy } from './declare.js';
import { admits, type Principal, type RolesOf } from './principal.js';
import { compileWhere, type WhereTarget } from './where.js';

/** What a rule decided for one caller: nobody (`false`), or the conditions of the records allowed. */
export type Decision = false | readonly Condition[];

/** The kinds of rule: reading covers index, show and every path that reads through the resource. */
export type RuleKind = 'read' | 'create' | 'update' | 'destroy';

/** The rule kind an action is decided by. */
export function ruleOf(action: ActionName): RuleKind {
  return action === 'index' || action === 'show' || action === 'stats' || action === 'events' ? 'read' : action;
}

/** What one caller may read and write of a resource's fields, and the query rules that follow. */
export interface FieldView {
  /** Fields absent from every answer this caller gets; naming them in a query is a 400. */
  readonly hidden: ReadonlySet<string>;
  /** Fields this caller may not set on create / change on update (403 naming them). */
  readonly noCreate: ReadonlySet<string>;
  readonly noUpdate: ReadonlySet<string>;
  /** The resource's query rules without the hidden fields. */
  readonly query: QueryRules;
  /** The fields an answer renders (`id` first), without the hidden ones. */
  readonly shown: readonly string[];
}

/** What the API declares for every resource. */
export interface ApiAccess {
  readonly rolesOf: RolesOf;
  readonly tenancy?: Tenancy;
  /** Whether the API authenticates callers (else no request has a principal). */
  readonly authenticates: boolean;
}

const NONE: readonly Condition[] = Object.freeze([]);
const EMPTY: ReadonlySet<string> = new Set();

/**
 * A resource's access model compiled once, when its API mounts it: asked by every path that
 * reads, counts, references or changes its records, so that none can forget it.
 */
export class ResourceAccess {
  /** Whether anything restricts the resource (else every path skips the questions). */
  readonly restricted: boolean;
  /** Fields the server sets from the principal (the tenant's and the presets): never writable by clients. */
  readonly serverSet: readonly string[];
  /** Whether a rule asks something of the principal (roles, a function, presets, tenancy). */
  readonly needsPrincipal: boolean;
  readonly #rules: AccessRules;
  readonly #tenant: Tenancy | undefined;
  readonly #fields: readonly [string, FieldAccess][];
  readonly #views = new Map<string, FieldView>();
  readonly #tenants = new Map<Scalar, readonly Condition[]>();
  /** Views by the caller's roles, when every field rule is a role list or a boolean. */
  readonly #byRoles: Map<string, FieldView> | undefined;
  readonly #full: FieldView;

  constructor(
    readonly target: WhereTarget,
    declared: AccessRules | undefined,
    readonly api: ApiAccess,
    readonly query: QueryRules,
    readonly shown: readonly string[],
  ) {
    this.#rules = declared ?? {};
    this.#tenant = api.tenancy && target.attributes.has(api.tenancy.field) ? api.tenancy : undefined;
    this.#fields = Object.entries(this.#rules.fields ?? {}) as [string, FieldAccess][];
    for (const [field] of this.#fields) this.#known(field, 'fields');
    const presets = Object.keys(this.#rules.presets ?? {});
    for (const field of presets) this.#known(field, 'presets');
    this.serverSet = [...new Set([...(this.#tenant ? [this.#tenant.field] : []), ...presets])];
    this.restricted = declared !== undefined || this.#tenant !== undefined;
    const asks = (rule: unknown) => rule !== undefined && typeof rule !== 'boolean';
    this.needsPrincipal =
      this.serverSet.length > 0 ||
      (['read', 'create', 'update', 'destroy'] as const).some((kind) => asks(this.#rules[kind])) ||
      this.#fields.some(([, rules]) => asks(rules.read) || asks(rules.create) || asks(rules.update));
    this.#full = { hidden: EMPTY, noCreate: EMPTY, noUpdate: EMPTY, query, shown };
    const byRoles = this.#fields.every(([, rules]) =>
      [rules.read, rules.create, rules.update].every((who) => typeof who !== 'function'),
    );
    this.#byRoles = byRoles ? new Map() : undefined;
    for (const action of this.#rules.anonymous ?? []) {
      const rule = this.#rules[ruleOf(action)];
      if (!(rule === undefined || rule === true) || this.#tenant) {
        throw new TypeError(
          `access of ${target.name}: anonymous callers may ${action} only where its rule is \`true\` and no tenancy applies`,
        );
      }
    }
  }

  #known(field: string, what: string): void {
    if (!this.target.attributes.has(field)) {
      throw new TypeError(`access of ${this.target.name}: ${what} names "${field}", which is not a field`);
    }
  }

  /** Whether a caller without a principal may take the action. */
  anonymous(action: ActionName): boolean {
    return !this.api.authenticates || (this.#rules.anonymous?.includes(action) ?? false);
  }

  /**
   * What a rule decides for this caller. Reading adds the tenant's condition; a caller without
   * a tenant key reads nothing of a tenant-scoped resource.
   */
  decide(kind: RuleKind, principal: Principal | undefined): Decision {
    if (!this.restricted) return NONE;
    const own = this.#apply(this.#rules[kind], principal);
    if (own === false || kind !== 'read' || !this.#tenant) return own;
    const key = principal === undefined ? undefined : this.#tenant.of(principal);
    if (key === undefined || key === null) return false;
    const tenant = this.#tenantCondition(key);
    return own.length === 0 ? tenant : [...tenant, ...own];
  }

  /** The condition of one tenant, compiled once (tenants are few; a bounded cache). */
  #tenantCondition(key: Scalar): readonly Condition[] {
    let conditions = this.#tenants.get(key);
    if (!conditions) {
      conditions = Object.freeze(compileWhere({ [(this.#tenant as Tenancy).field]: key }, this.target));
      if (this.#tenants.size >= 10_000) this.#tenants.clear();
      this.#tenants.set(key, conditions);
    }
    return conditions;
  }

  #apply(rule: Rule | undefined, principal: Principal | undefined): Decision {
    if (rule === undefined || rule === true) return NONE;
    if (rule === false || principal === undefined) return false;
    if (typeof rule !== 'function') return admits(rule, principal, this.api.rolesOf) ? NONE : false;
    const answer = rule(principal);
    if (answer === true) return NONE;
    if (answer === false || typeof answer !== 'object' || answer === null) return false;
    return compileWhere(answer, this.target);
  }

  /** The values the server sets on create for this caller: the tenant's key and the presets. */
  presets(principal: Principal | undefined): Record<string, Scalar> | undefined {
    if (this.serverSet.length === 0 || principal === undefined) return undefined;
    const values: Record<string, Scalar> = {};
    if (this.#tenant) values[this.#tenant.field] = this.#tenant.of(principal);
    for (const [field, preset] of Object.entries(this.#rules.presets ?? {})) {
      values[field] = (preset as (p: Principal) => Scalar)(principal);
    }
    return values;
  }

  /** What this caller may read and write of the fields (one view per combination, made once). */
  view(principal: Principal | undefined): FieldView {
    if (this.#fields.length === 0) return this.#full;
    const byRoles = this.#byRoles;
    if (!byRoles) return this.#viewFor(principal);
    const held = principal === undefined ? undefined : this.api.rolesOf(principal);
    const roles = principal === undefined ? '\u0000' : typeof held === 'string' ? held : (held ?? []).join('\u0000');
    let view = byRoles.get(roles);
    if (!view) {
      view = this.#viewFor(principal);
      if (byRoles.size < 1000) byRoles.set(roles, view);
    }
    return view;
  }

  #viewFor(principal: Principal | undefined): FieldView {
    const hidden: string[] = [];
    const noCreate: string[] = [];
    const noUpdate: string[] = [];
    const { rolesOf } = this.api;
    for (const [field, rules] of this.#fields) {
      if (rules.read !== undefined && !admits(rules.read, principal, rolesOf)) hidden.push(field);
      if (rules.create !== undefined && !admits(rules.create, principal, rolesOf)) noCreate.push(field);
      if (rules.update !== undefined && !admits(rules.update, principal, rolesOf)) noUpdate.push(field);
    }
    const key = `${hidden}|${noCreate}|${noUpdate}`;
    let view = this.#views.get(key);
    if (!view) {
      view = this.#viewOf(new Set(hidden), new Set(noCreate), new Set(noUpdate));
      this.#views.set(key, view);
    }
    return view;
  }

  #viewOf(hidden: Set<string>, noCreate: Set<string>, noUpdate: Set<string>): FieldView {
    if (hidden.size === 0) return { ...this.#full, noCreate, noUpdate };
    const without = (names: ReadonlySet<string>) => new Set([...names].filter((name) => !hidden.has(name)));
    const { query } = this;
    return {
      hidden,
      noCreate,
      noUpdate,
      shown: this.shown.filter((name) => !hidden.has(name)),
      query: {
        ...query,
        filterable: without(query.filterable),
        sortable: without(query.sortable),
        fields: without(query.fields),
        operators: new Map([...query.operators].filter(([name]) => !hidden.has(name))),
        // A searchable field hidden from the caller is left out of their search (docs/search.md).
        ...(query.search ? { search: query.search.filter((name) => !hidden.has(name)) } : {}),
      },
    };
  }
}
