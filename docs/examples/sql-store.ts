// The SQL store of docs/stores.md: the books in the database DATABASE_URL names (a SQLite file
// by default), the DDL the store runs, and a resource whose every action is one transaction.
import { defineResource } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import { resourcery } from '@resourcery/express';
import { schemaSql, sqlStore } from '@resourcery/sql';
import express from 'express';
import { Book, books } from './book.js';

const store = sqlStore(process.env.DATABASE_URL ?? 'sqlite:data/books.sqlite');
export const app = express();
app.use('/api', resourcery({ resources: [books], store }));

export { store };

/** The statements `init` runs for the books' table, as SQL text, for review or another migration tool. */
export const ddl = schemaSql(resourceSchemas([books]), 'postgres'); // 'sqlite' | 'postgres' | 'mysql' | 'mariadb'

/** Every action of this resource runs in one transaction, its hooks included. */
export const transactionalBooks = defineResource({
  name: 'book',
  model: Book,
  hooks: { around: { all: (ctx, next) => ctx.transaction(next) } },
});
