// The resources of the migration example: a book refers to its author (a foreign key), and
// `isbn` joined the model after the first tables were frozen.
import { belongsTo, defineResource } from '@resourcery/core';
import { IsInt, IsOptional, IsString, Length } from 'class-validator';

export class Author {
  @IsString() @Length(1, 200) name!: string;
}

export class Book {
  @IsString() @Length(1, 500) title!: string;
  @IsInt() authorId!: number;
  // Added later: migrations/20240601120000_add_isbn.ts makes its column.
  @IsOptional() @IsString() @Length(10, 17) isbn?: string | null;
}

export const authors = defineResource({ name: 'author', model: Author });

export const books = defineResource({
  name: 'book',
  model: Book,
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
});

export const resources = [authors, books];
