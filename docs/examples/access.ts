// The access model of a small issue tracker (docs/access.md): bearer tokens, tenancy by
// organization, three roles, a field only admins read, a field only admins change, comments
// their authors own, and issues archived instead of destroyed.
import { bearerJwt, belongsTo, createApi, defineResource } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { IsEmail, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';

declare module '@resourcery/core' {
  interface Register {
    principal: { sub: number; org: number; role: 'viewer' | 'member' | 'admin' };
  }
}

const ROLES = ['viewer', 'member', 'admin'] as const;
const writers = ['member', 'admin'];

export class User {
  @IsInt() orgId!: number;
  @IsString() @Length(1, 100) name!: string;
  @IsEmail() email!: string;
}

export class Project {
  @IsInt() orgId!: number;
  @IsString() @Length(1, 100) name!: string;
}

export class Issue {
  @IsInt() orgId!: number;
  @IsInt() projectId!: number;
  @IsString() @Length(1, 200) title!: string;
  @IsInt() @Min(1) @Max(4) priority!: number;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
}

export class Comment {
  @IsInt() orgId!: number;
  @IsInt() issueId!: number;
  @IsInt() authorId!: number;
  @IsString() @Length(1, 5000) body!: string;
}

export const users = defineResource({
  name: 'user',
  model: User,
  unique: ['email'], // unique within an organization: the tenancy makes it (orgId, email)
  access: {
    create: ['admin'],
    update: ['admin'],
    destroy: ['admin'],
    fields: { email: { read: ['admin'] } }, // absent for others, and not a filter, sort or field they may name
  },
});

export const projects = defineResource({
  name: 'project',
  model: Project,
  unique: ['name'],
  access: { create: writers, update: writers, destroy: ['admin'] },
});

export const issues = defineResource({
  name: 'issue',
  model: Issue,
  defaults: { priority: 3 },
  archive: 'archivedAt', // DELETE sets it; archived issues are 404 unless asked for with archived=true
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
  access: {
    create: writers,
    update: writers,
    destroy: ['admin'],
    fields: { priority: { update: ['admin'] } }, // a member sending another priority gets 403
  },
});

export const comments = defineResource({
  name: 'comment',
  model: Comment,
  relations: { issue: belongsTo(Issue, { foreignKey: 'issueId', onDelete: 'cascade' }) },
  access: {
    create: writers,
    // Admins change any comment; members only theirs: a row rule, compiled into the write's query.
    update: (p) => p.role === 'admin' || (p.role === 'member' && { authorId: p.sub }),
    destroy: (p) => p.role === 'admin' || (p.role === 'member' && { authorId: p.sub }),
    presets: { authorId: (p) => p.sub }, // set from the token on create, never sent by clients
  },
});

/** The claims of a token as the principal, or `undefined` (a 401) when one is missing or malformed. */
function principalOf(claims: Record<string, unknown>) {
  const sub = typeof claims.sub === 'string' && /^[1-9]\d*$/.test(claims.sub) ? Number(claims.sub) : Number.NaN;
  const { org, role } = claims;
  if (!Number.isSafeInteger(sub) || !Number.isSafeInteger(org) || (org as number) < 1) return undefined;
  if (!ROLES.includes(role as (typeof ROLES)[number])) return undefined;
  return { sub, org: org as number, role: role as (typeof ROLES)[number] };
}

export function trackerApi(store: Store, secret: string) {
  return createApi({
    resources: [users, projects, issues, comments],
    store,
    authenticate: bearerJwt({ secret, principal: principalOf }),
    tenancy: { field: 'orgId', of: (p) => p.org },
  });
}
