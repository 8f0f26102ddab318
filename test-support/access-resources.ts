// A small multi-tenant API declared with the access model (CONTRACT part 4): bearer JWTs,
// tenancy by organization, role rules, a field only admins read, a field only admins change,
// a preset, an archive, and a resource anonymous callers may read. The tests of what the access
// model shows outside use it: the OpenAPI document, its lint, the typed client, a generated client.
import 'reflect-metadata';
import { bearerJwt, belongsTo, defineResource, type Principal, type ServerSet, type Tenancy } from '@resourcery/core';
import { IsEmail, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { SignJWT } from 'jose';

/** The HS256 secret the API verifies tokens with. */
export const SECRET = 'access-tests-secret';

export class User {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 100) name!: string;
  @IsEmail() email!: string;
  @IsIn(['viewer', 'member', 'admin']) role!: string;
}

export class Issue {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 200) title!: string;
  @IsInt() @Min(1) @Max(4) priority!: number;
  @IsOptional() @IsInt() assigneeId?: number | null;
  @IsOptional() @IsISO8601() archivedAt?: ServerSet<string> | null;
}

export class Comment {
  @IsInt() orgId!: ServerSet<number>;
  @IsInt() issueId!: number;
  @IsInt() authorId!: ServerSet<number>;
  @IsString() @Length(1, 5000) body!: string;
}

/** Announcements: anyone reads them, without a token; admins write them. */
export class Notice {
  @IsString() @Length(1, 500) message!: string;
}

const writers = ['member', 'admin'];
const sub = (principal: Readonly<Record<string, unknown>>) => principal.sub as number;
const authorOnly = (principal: Readonly<Record<string, unknown>>) =>
  principal.role === 'admin' || (principal.role === 'member' && { authorId: sub(principal) });

export const users = defineResource({
  name: 'user',
  model: User,
  unique: ['email'],
  access: { create: ['admin'], update: ['admin'], destroy: ['admin'], fields: { email: { read: ['admin'] } } },
});

export const issues = defineResource({
  name: 'issue',
  model: Issue,
  defaults: { priority: 3 },
  archive: 'archivedAt',
  relations: { assignee: belongsTo(User, { foreignKey: 'assigneeId', onDelete: 'nullify' }) },
  access: { create: writers, update: writers, destroy: ['admin'], fields: { priority: { update: ['admin'] } } },
});

export const comments = defineResource({
  name: 'comment',
  model: Comment,
  relations: { issue: belongsTo(Issue, { foreignKey: 'issueId', onDelete: 'cascade' }) },
  access: { create: writers, update: authorOnly, destroy: authorOnly, presets: { authorId: sub } },
});

export const notices = defineResource({
  name: 'notice',
  model: Notice,
  access: { create: ['admin'], update: ['admin'], destroy: ['admin'], anonymous: ['index', 'show'] },
});

export const accessResources = [users, issues, comments, notices];

/** Every record of an organization's resources carries its id, from the token. */
export const tenancy: Tenancy = { field: 'orgId', of: (principal) => principal.org as number };

const positive = (value: unknown) => (Number.isSafeInteger(Number(value)) && Number(value) > 0 ? Number(value) : NaN);

/** Bearer JWTs signed with {@link SECRET}: claims `sub`, `org` and `role`. */
export const authenticate = bearerJwt({
  secret: SECRET,
  principal: (claims) => {
    const principal = { sub: positive(claims.sub), org: positive(claims.org), role: claims.role } as Principal;
    const valid = principal.sub > 0 && principal.org > 0 && writers.concat('viewer').includes(String(claims.role));
    return valid ? principal : undefined;
  },
});

/** The options of `createApi` (or of an adapter) for these resources, but the store. */
export const accessApi = { resources: accessResources, authenticate, tenancy };

/** A token of a user of an organization with a role, signed with {@link SECRET} (or another secret). */
export function tokenFor(
  claims: { sub: number; org: number; role: 'viewer' | 'member' | 'admin' },
  options: { secret?: string; exp?: number } = {},
): Promise<string> {
  const jwt = new SignJWT({ org: claims.org, role: claims.role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    .setIssuedAt();
  if (options.exp !== undefined) jwt.setExpirationTime(options.exp); // seconds since the epoch
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}
