import { defineResource } from '@resourcery/core';
import { IsString, Length } from 'class-validator';

/** A book: both fields are required strings of 1 to 500 characters. */
export class Book {
  @IsString()
  @Length(1, 500)
  name!: string;

  @IsString()
  @Length(1, 500)
  author!: string;
}

export const books = defineResource({ name: 'book', model: Book });
