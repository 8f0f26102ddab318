// Allow-lists and settings: every one is optional and defaults to the contract's behaviour.
import { defineResource } from '@resourcery/core';
import { IsInt, IsOptional, IsString, Length } from 'class-validator';

export class Book {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
  @IsOptional() @IsInt() ownerId?: number | null;
}

export const books = defineResource({
  name: 'book',
  model: Book,
  fields: {
    create: ['name', 'author'], // what create may set (else 422 "cannot be set")
    update: ['name'], // what update may change (else 422 "cannot be changed")
    show: ['name', 'author'], // what responses show (id always)
    filter: ['author'], // what filter[...] may use (else 400 naming it); default: id and show
    sort: ['name', 'id'], // what sort may use (else 400 naming it); default: id and show
    readOnly: ['ownerId'], // never sent by clients (id always is)
  },
  defaultSort: '-id', // the index's order when no sort is given
  perPage: { default: 10, max: 50 }, // per_page above max is a 400, never clamped
  bodyLimit: 64 * 1024, // bytes; larger bodies are 413
  count: false, // no X-Total-Count unless a request asks with count=true
  plural: 'books', // the list key and path segment, when "name + s" is wrong
});
