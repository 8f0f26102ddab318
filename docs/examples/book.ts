// The book resource the Fetch recipes serve (the books example's, examples/books/src/book.ts).
import { defineResource } from '@resourcery/core';
import { IsString, Length } from 'class-validator';

export class Book {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
}

export const books = defineResource({ name: 'book', model: Book });
