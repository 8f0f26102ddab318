// `q=` search (docs/search.md): a resource declares the string fields `q` searches. Here an
// article's `title` and `body` are searched; its `notes` are searched too, but only admins may
// read them, so only admins' searches look into them.
import 'reflect-metadata';
import { createApi, defineResource, type Principal } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { IsOptional, IsString, Length } from 'class-validator';

export class Article {
  @IsString() @Length(1, 200) title!: string;
  @IsOptional() @IsString() body?: string | null;
  @IsOptional() @IsString() notes?: string | null;
}

export const articles = defineResource({
  name: 'article',
  model: Article,
  search: ['title', 'body', 'notes'],
  access: { fields: { notes: { read: ['admin'] } } },
});

/** The API, with the caller's role taken from an `x-role` header (a stand-in for real authentication). */
export function articlesApi(store: Store) {
  return createApi({
    resources: [articles],
    store,
    authenticate: (request) => {
      const role = request.headers['x-role'];
      return role ? ({ sub: 1, role } as Principal) : undefined;
    },
  });
}
