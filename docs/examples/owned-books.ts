// A fully customized resource: authentication declared once for the whole API, per-user
// scoping, a field computed on create, hidden fields, a soft delete and a disabled action.
import {
  type ActionContext,
  defineResource,
  type Hook,
  type OpenApiOptions,
  UnauthorizedError,
} from '@resourcery/core';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';

export class Book {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
  @IsInt() ownerId!: number;
  @IsOptional() @IsBoolean() deleted?: boolean | null;
}

export interface User {
  id: number;
  name: string;
}

export interface State {
  user?: User;
}

/** The users and their bearer tokens (a real service asks its identity provider). */
export const USERS: Record<string, User> = { alice: { id: 1, name: 'Alice' }, bob: { id: 2, name: 'Bob' } };

/** Authentication for every resource of the API: each request needs a known bearer token, else 401. */
export const authenticate: Hook<ActionContext<unknown, State>> = (ctx) => {
  const token = ctx.request.headers.authorization?.replace(/^Bearer /, '');
  const user = token ? USERS[token] : undefined;
  if (!user) throw new UnauthorizedError('A valid bearer token is required', { 'WWW-Authenticate': 'Bearer' });
  ctx.state.user = user;
};

/** The API-wide hooks: `createApi({ resources: [books], store, hooks: apiHooks, openapi: bearerOpenApi })`. */
export const apiHooks = { before: { all: authenticate } };

/**
 * What the OpenAPI document says of that hook. The document cannot see what a hook asks for:
 * without this it says `security: []`, and clients generated from it send no token.
 */
export const bearerOpenApi = {
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  security: [{ bearer: [] }], // every operation
} satisfies OpenApiOptions;

const currentUser = (ctx: ActionContext<Book, State>): User => ctx.state.user as User;

export const books = defineResource.withState<State>()({
  name: 'book',
  model: Book,
  fields: {
    readOnly: ['ownerId', 'deleted'], // set on the server: a client sending them gets a 422
    show: ['name', 'author'], // ownerId and deleted are hidden from responses
  },
  steps: {
    // Per-user scoping: other users' books do not exist for you, soft-deleted ones for nobody.
    scope: (ctx) => ({ ownerId: currentUser(ctx).id, deleted: [false, null] }),
    // A field computed on create, added to what the default prepares.
    prepare: (ctx, next) => (ctx.action === 'create' ? { ...next(), ownerId: currentUser(ctx).id } : next()),
    // Destroy becomes a soft delete: the same scoped write as an update.
    destroy: async (ctx) => (await ctx.collection.update(ctx.id, { deleted: true }, ctx.where)) !== undefined,
    // Every rendered book says who owns it, on top of the shown fields.
    render: (record, ctx, next) => ({ ...next(record), owner: currentUser(ctx).name }),
  },
  actions: { update: false }, // a disabled action answers 405 with Allow
});
