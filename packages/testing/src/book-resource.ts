import { defineResource, type Resource, type ResourceOptions } from '@resourcery/core';
import { IsString, Length } from 'class-validator';

/**
 * The contract's model: a book whose `name` and `author` are required strings of 1 to 500
 * characters (`id` is assigned by the store).
 *
 * @example
 * ```ts
 * const books = defineResource({ name: 'book', model: Book });
 * ```
 */
export class Book {
  @IsString()
  @Length(1, 500)
  name!: string;

  @IsString()
  @Length(1, 500)
  author!: string;
}

/** Options of {@link bookResource}: anything but the name and model, which the contract fixes. */
export type BookResourceOptions = Omit<ResourceOptions<Book, Record<string, unknown>>, 'name' | 'model'>;

/**
 * The contract's `book` resource (served at `books`), as the HTTP conformance suite expects it.
 * Adapters and stores mount it to run the suite; `options` may add hooks or a store but must
 * not change what the contract fixes.
 *
 * @example
 * ```ts
 * app.use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }));
 * ```
 */
export function bookResource(options: BookResourceOptions = {}): Resource<Book> {
  return defineResource<Book>({ ...options, name: 'book', model: Book });
}
