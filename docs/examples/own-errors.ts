// Your own errors, thrown from any hook or step: each becomes the problem+json answer it names.
import {
  ConflictError,
  defineResource,
  ForbiddenError,
  HttpError,
  UnauthorizedError,
  ValidationError,
} from '@resourcery/core';
import { IsString, Length } from 'class-validator';

class Book {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
}

/** Titles already in the catalogue of another system, which this API may not reuse. */
const elsewhere = new Set(['Dune']);

export const books = defineResource({
  name: 'book',
  model: Book,
  hooks: {
    before: {
      all: (ctx) => {
        const token = ctx.request.headers.authorization;
        if (!token) throw new UnauthorizedError('Sign in first', { 'WWW-Authenticate': 'Bearer' });
        if (token === 'Bearer greedy') {
          throw new HttpError(429, 'too_many_requests', { detail: 'Slow down', headers: { 'Retry-After': '10' } });
        }
      },
      destroy: (ctx) => {
        if (ctx.request.headers.authorization !== 'Bearer editor')
          throw new ForbiddenError('Only editors may delete books');
      },
    },
  },
  steps: {
    prepare: (_ctx, next) => {
      const values = next();
      if (values.name === 'Untitled') throw new ValidationError({ name: ['is not a title'] });
      if (typeof values.name === 'string' && elsewhere.has(values.name)) {
        throw new ConflictError('A book with this name already exists');
      }
      return values;
    },
  },
});
