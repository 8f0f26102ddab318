import type { ServerSet } from '@resourcery/core';
import {
  IsDecimal,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** An author; `createdAt` and `updatedAt` come from the resource's `timestamps` option. */
export class Author {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  country?: string | null;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

/** A book of an existing author; `isbn` is unique, `price` a decimal with 2 places. */
export class Book {
  @IsString()
  @Length(1, 500)
  title!: string;

  @IsInt()
  authorId!: number;

  @IsOptional()
  @IsInt()
  year?: number | null;

  @IsOptional()
  @IsString()
  @Length(10, 17)
  isbn?: string | null;

  @IsOptional()
  @IsDecimal({ decimal_digits: '0,2' })
  price?: string | null;

  @IsOptional()
  @IsISO8601()
  publishedAt?: string | null;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

/** A review of an existing book, with a uuid id the server assigns. */
export class Review {
  @IsUUID()
  id!: ServerSet<string>;

  @IsInt()
  bookId!: number;

  @IsInt()
  @Min(1)
  @Max(5)
  rating!: number;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  body?: string | null;

  createdAt!: ServerSet<string>;
}
