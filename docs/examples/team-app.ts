// The service a team built: authors and their books, mounted in an existing Express app, with
// timestamps, a unique ISBN, a checked foreign key, and an audit row written in the same
// transaction as every change to a book.
import { belongsTo, defineResource, hasMany, type ServerSet } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { IsIn, IsInt, IsOptional, IsString, Length } from 'class-validator';
import type { Express } from 'express';

export class Author {
  @IsString() @Length(1, 200) name!: string;
  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

export class Book {
  @IsString() @Length(1, 500) title!: string;
  @IsInt() authorId!: number;
  @IsOptional() @IsInt() year?: number | null;
  @IsOptional() @IsString() @Length(10, 17) isbn?: string | null;
  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

export class Audit {
  @IsIn(['create', 'update', 'destroy']) action!: string;
  @IsInt() bookId!: number;
  createdAt!: ServerSet<string>;
}

const readOnly = { create: false, update: false, destroy: false } as const;
export const audits = defineResource({
  name: 'audit',
  model: Audit,
  timestamps: { updatedAt: false },
  actions: readOnly,
});

export const authors = defineResource({
  name: 'author',
  model: Author,
  timestamps: true,
  relations: { books: hasMany(Book, { foreignKey: 'authorId' }) },
});

export const books = defineResource({
  name: 'book',
  model: Book,
  timestamps: true,
  unique: ['isbn'],
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
  hooks: {
    around: {
      all: (ctx, next) => {
        if (ctx.action === 'show' || ctx.action === 'index' || ctx.action === 'stats') return next();
        return ctx.transaction(async () => {
          const done = await next();
          const bookId = ctx.action === 'create' ? ctx.record?.id : ctx.id;
          if (bookId !== undefined) await ctx.collectionOf(audits).create({ action: ctx.action, bookId });
          return done;
        });
      },
    },
  },
});

/** Mounts the API under `/api` of the team's app. */
export function mountLibrary(app: Express, store: Store): void {
  app.use('/api', resourcery({ resources: [authors, books, audits], store }));
}
