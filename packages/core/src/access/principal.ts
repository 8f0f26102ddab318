/**
 * Your application's declarations for the library's types, by declaration merging: give
 * `principal` the type your `authenticate` answers, and every rule, hook and context sees it.
 *
 * @example
 * ```ts
 * declare module '@resourcery/core' {
 *   interface Register {
 *     principal: { sub: number; org: number; role: 'viewer' | 'member' | 'admin' };
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: applications add their declarations to it
export interface Register {}

/**
 * Who a request comes from, as the API's `authenticate` answered it: the type declared in
 * {@link Register}, else any object.
 *
 * @example
 * ```ts
 * const isAdmin = (principal: Principal) => principal.role === 'admin';
 * ```
 */
export type Principal = Register extends { principal: infer P } ? P : Readonly<Record<string, unknown>>;

/**
 * Who may do something: every authenticated caller (`true`), nobody (`false`), the callers
 * holding one of these roles (`['member', 'admin']`), or those a predicate accepts.
 *
 * @example
 * ```ts
 * const writers: Who = ['member', 'admin'];
 * const owner: Who = (principal) => principal.sub === 1;
 * ```
 */
export type Who = boolean | readonly string[] | ((principal: Principal) => boolean);

/**
 * How the API reads the roles of a principal (`roles` option of `createApi`). By default, its
 * `roles` (a list) or its `role` (one name).
 *
 * @example
 * ```ts
 * const rolesOf: RolesOf = (principal) => principal.groups as string[];
 * ```
 */
export type RolesOf = (principal: Principal) => string | readonly string[] | undefined;

/** The default {@link RolesOf}: `principal.roles`, else `principal.role`. */
export const defaultRoles: RolesOf = (principal) => {
  const { roles, role } = principal as { roles?: unknown; role?: unknown };
  if (Array.isArray(roles)) return roles.filter((entry): entry is string => typeof entry === 'string');
  return typeof role === 'string' ? role : undefined;
};

/** Whether `who` lets `principal` in; an anonymous caller (`undefined`) only where `who` is `true`. */
export function admits(who: Who, principal: Principal | undefined, rolesOf: RolesOf): boolean {
  if (principal === undefined) return who === true;
  if (typeof who === 'boolean') return who;
  if (typeof who === 'function') return who(principal) === true;
  const held = rolesOf(principal);
  if (held === undefined) return false;
  return typeof held === 'string' ? who.includes(held) : held.some((role) => who.includes(role));
}
