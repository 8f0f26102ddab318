// What gets an index: every filtered or sorted attribute whose values are short, and the
// composite index a resource declares for the list its clients ask for most.
import { belongsTo, defineResource } from '@resourcery/core';
import { IsInt, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class Author {
  @IsString() @Length(1, 200) name!: string; // (name, id)
}

export class Book {
  @IsString() @Length(1, 500) title!: string; // (title, id): 500 characters at most
  @IsInt() authorId!: number; // (authorId, id): a foreign key, filtered
  @IsOptional() @IsInt() year?: number | null; // (year, id)
  @IsOptional() @IsString() @MaxLength(20000) summary?: string | null; // long text: no index
}

export const authors = defineResource({ name: 'author', model: Author });

export const books = defineResource({
  name: 'book',
  model: Book,
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
  // An author's books, latest first: GET /api/books?filter[authorId]=7&sort=-year reads the
  // page from this index in order, however many books the author has.
  indexes: [['authorId', '-year', 'id']],
});
