// A name unique per owner, without telling anyone what other users store: the unique index is
// scoped to the owner, and a friendlier check in `prepare` looks only within the user's scope.
import { type ActionContext, defineResource, ValidationError } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createTableSql } from '@resourcery/sql';
import { IsInt, IsString, Length } from 'class-validator';
import { type Kysely, sql } from 'kysely';
import type { State, User } from './owned-books.js';

export class Tag {
  @IsString() @Length(1, 100) name!: string;
  @IsInt() ownerId!: number;
}

const owner = (ctx: ActionContext<Tag, State>): number => (ctx.state.user as User).id;

export const tags = defineResource.withState<State>()({
  name: 'tag',
  model: Tag,
  fields: { readOnly: ['ownerId'], show: ['name'] },
  steps: {
    scope: (ctx) => ({ ownerId: owner(ctx) }),
    prepare: async (ctx, next) => {
      const values = ctx.action === 'create' ? { ...next(), ownerId: owner(ctx) } : next();
      if (typeof values.name !== 'string') return values;
      // Looked up within ctx.where (this user's tags), so the answer says nothing about others'.
      // Two requests of one user racing with one name may both pass: the index refuses one.
      const { records } = await ctx.collection.list({
        where: [...ctx.where, { field: 'name', values: [values.name] }],
        order: [{ field: 'id', direction: 'asc' }],
        limit: 2,
        offset: 0,
        count: false,
      });
      const self = ctx.action === 'update' ? ctx.id : undefined;
      if (records.some((record) => record.id !== self)) throw new ValidationError({ name: ['is already taken'] });
      return values;
    },
  },
});

/**
 * Your migration: the table as `sqlStore` would create it, and the unique index over
 * (ownerId, name), never over name alone. Then serve with `sqlStore(url, { createTables: false })`.
 */
export async function migrate(db: Kysely<unknown>): Promise<void> {
  for (const statement of createTableSql(compiledResource(tags).schema, 'sqlite')) {
    await sql.raw(statement).execute(db);
  }
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS tags_owner_name_unique ON tags ("ownerId", "name")`.execute(db);
}
