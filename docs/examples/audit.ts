// An audit row in the same transaction as the record it describes: both are stored, or neither.
import { defineResource, type ServerSet } from '@resourcery/core';
import { IsIn, IsInt, IsString, Length } from 'class-validator';

export class Book {
  @IsString() @Length(1, 500) title!: string;
}

export class Audit {
  @IsIn(['create', 'update', 'destroy']) action!: string;
  @IsInt() bookId!: number;
  createdAt!: ServerSet<string>;
}

/** The audit log: readable over HTTP, written only by the books' steps. */
export const audits = defineResource({
  name: 'audit',
  model: Audit,
  timestamps: { updatedAt: false },
  actions: { create: false, update: false, destroy: false },
});

export const books = defineResource({
  name: 'book',
  model: Book,
  steps: {
    // ctx.transaction() spans every resource of the store: ctx.collection and
    // ctx.collectionOf(audits) are bound to it until the work ends.
    create: (ctx, next) =>
      ctx.transaction(async () => {
        const book = await next();
        await ctx.collectionOf(audits).create({ action: 'create', bookId: book.id });
        return book;
      }),
    update: (ctx, next) =>
      ctx.transaction(async () => {
        const book = await next();
        if (book) await ctx.collectionOf(audits).create({ action: 'update', bookId: book.id });
        return book;
      }),
  },
});
