import type { ActionName } from '../contract/actions.js';
import type { Scalar } from '../schema/types.js';
import type { Principal, Who } from './principal.js';
import type { Where } from './where.js';

/**
 * Who may take an action, and on which records: `true` (every authenticated caller), `false`
 * (nobody: 403), a list of roles, or a function of the principal answering one of those or the
 * {@link Where} conditions of the records it may take the action on.
 *
 * @example
 * ```ts
 * const update: Rule<Comment> = (principal) => principal.role === 'admin' || { authorId: principal.sub };
 * ```
 */
export type Rule<M = Record<string, unknown>> =
  | boolean
  | readonly string[]
  | ((principal: Principal) => boolean | Where<M>);

/**
 * Who may read and write one field. A field a caller may not read is absent from every answer
 * they get (includes and events too), and filtering, sorting, `fields=` or a relation filter on
 * it is the 400 of a field that does not exist. A field they may not write is a 403 naming it
 * (on update, unless the value sent is the stored one).
 *
 * @example
 * ```ts
 * const email: FieldAccess = { read: ['admin'] };
 * const priority: FieldAccess = { update: ['admin'] };
 * ```
 */
export interface FieldAccess {
  readonly read?: Who;
  readonly create?: Who;
  readonly update?: Who;
}

/**
 * The access model of a resource (`defineResource({ access })`), enforced wherever its records
 * are read, counted, referenced or changed: its own actions, `include=` and relation filters of
 * other resources, foreign keys naming its records. Every rule defaults to `true`.
 *
 * @example
 * ```ts
 * defineResource({
 *   name: 'comment',
 *   model: Comment,
 *   access: {
 *     create: ['member', 'admin'],
 *     update: (p) => p.role === 'admin' || (p.role === 'member' && { authorId: p.sub }),
 *     destroy: (p) => p.role === 'admin' || (p.role === 'member' && { authorId: p.sub }),
 *     presets: { authorId: (p) => p.sub },
 *   },
 * });
 * ```
 */
export interface AccessRules<M = Record<string, unknown>> {
  /** Index and show, and every path reading through this resource: records others may not read are 404 and never listed, counted, included or matched. */
  readonly read?: Rule<M>;
  /** Create; conditions are what the new record's values must be (else 403). */
  readonly create?: Rule<M>;
  /** Update; conditions say which of the records the caller reads they may change (others: 403). */
  readonly update?: Rule<M>;
  /** Destroy; conditions as for update. */
  readonly destroy?: Rule<M>;
  /** Who may read and write each field (every field: everyone, by default). */
  readonly fields?: { readonly [K in keyof M & string]?: FieldAccess };
  /** Values set from the principal on create (`authorId: (p) => p.sub`); clients may never send them (422). */
  readonly presets?: { readonly [K in keyof M & string]?: (principal: Principal) => Scalar };
  /** Actions callers without a principal may take (their rule must then be `true`); default none when the API authenticates. */
  readonly anonymous?: readonly ActionName[];
}

/**
 * Tenancy, declared once on the API (`createApi({ tenancy })`): every resource holding `field`
 * is scoped to the caller's tenant on every path, its `field` is set from the principal on
 * create and never writable, and its unique values are unique within a tenant.
 *
 * @example
 * ```ts
 * createApi({ resources, store, authenticate, tenancy: { field: 'orgId', of: (p) => p.org } });
 * ```
 */
export interface Tenancy {
  readonly field: string;
  readonly of: (principal: Principal) => Scalar;
}
