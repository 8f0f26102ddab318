// Relations are checked when an API mounts the resources: a mistake in the declaration throws
// at start-up with a message naming the relation, never on the first request.
import 'reflect-metadata';
import { belongsTo, createApi, defineResource, hasMany, memoryStore } from '@resourcery/core';
import { IsInt, IsString, IsUUID } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { parseMemberQuery } from '../src/query/parse-query.js';

class Author {
  @IsString() name!: string;
}
class Book {
  @IsString() title!: string;
  @IsInt() authorId!: number;
  @IsString() label!: string;
}
class Tag {
  @IsUUID() id!: string;
  @IsString() name!: string;
}

const authors = defineResource({
  name: 'author',
  model: Author,
  relations: { books: hasMany(Book, { foreignKey: 'authorId' }) },
});
const books = defineResource({
  name: 'book',
  model: Book,
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
});

describe('relations when an API is created', () => {
  it('links both sides and accepts either order', () => {
    expect(() => createApi({ resources: [books, authors], store: memoryStore() })).not.toThrow();
  });

  it('refuses a target the API does not serve', () => {
    expect(() => createApi({ resources: [books], store: memoryStore() })).toThrow(
      /relation book\.author names a resource this API does not serve/,
    );
  });

  it('refuses a model two resources serve, unless the resource is named', () => {
    const writers = defineResource({ name: 'writer', model: Author });
    expect(() => createApi({ resources: [books, authors, writers], store: memoryStore() })).toThrow(
      /several resources serve/,
    );
    const named = defineResource({
      name: 'novel',
      model: Book,
      relations: { author: belongsTo(() => writers, { foreignKey: 'authorId' }) },
    });
    expect(() => createApi({ resources: [named, writers, authors], store: memoryStore() })).not.toThrow();
  });

  it('refuses a foreign key that is not a field, or not of the type of the ids it holds', () => {
    const missing = defineResource({
      name: 'book',
      model: Book,
      relations: { author: belongsTo(Author, { foreignKey: 'writerId' }) },
    });
    expect(() =>
      createApi({ resources: [missing, defineResource({ name: 'author', model: Author })], store: memoryStore() }),
    ).toThrow(/book has no field "writerId"/);
    const tags = defineResource({ name: 'tag', model: Tag });
    const wrong = defineResource({
      name: 'book',
      model: Book,
      relations: { tag: belongsTo(Tag, { foreignKey: 'authorId' }) },
    });
    expect(() => createApi({ resources: [wrong, tags], store: memoryStore() })).toThrow(/authorId must be a uuid/);
  });

  it('refuses resources that refer to each other in a cycle, as every store does; one may refer to itself', () => {
    class Team {
      @IsString() name!: string;
      @IsInt() leadId!: number;
    }
    class Member {
      @IsString() name!: string;
      @IsInt() teamId!: number;
      @IsInt() mentorId!: number;
    }
    const teams = defineResource({
      name: 'team',
      model: Team,
      relations: { lead: belongsTo(Member, { foreignKey: 'leadId' }) },
    });
    const members = defineResource({
      name: 'member',
      model: Member,
      relations: {
        team: belongsTo(Team, { foreignKey: 'teamId' }),
        mentor: belongsTo(Member, { foreignKey: 'mentorId' }),
      },
    });
    expect(() => createApi({ resources: [teams, members], store: memoryStore() })).toThrow(
      'Collections refer to each other in a cycle (teams → members → teams)',
    );
    const loners = defineResource({
      name: 'member',
      model: Member,
      relations: { mentor: belongsTo(Member, { foreignKey: 'mentorId' }) },
    });
    expect(() => createApi({ resources: [loners], store: memoryStore() })).not.toThrow();
  });

  it('refuses relations across stores and contradicting onDelete rules', () => {
    const elsewhere = defineResource({ name: 'author', model: Author, store: memoryStore() });
    expect(() => createApi({ resources: [books, elsewhere], store: memoryStore() })).toThrow(/same store/);
    const cascading = defineResource({
      name: 'author',
      model: Author,
      relations: { books: hasMany(Book, { foreignKey: 'authorId', onDelete: 'cascade' }) },
    });
    const nullifying = defineResource({
      name: 'book',
      model: Book,
      relations: { author: belongsTo(Author, { foreignKey: 'authorId', onDelete: 'nullify' }) },
    });
    expect(() => createApi({ resources: [nullifying, cascading], store: memoryStore() })).toThrow(/onDelete differs/);
  });
});

describe('parseMemberQuery', () => {
  it('reads a list of names, repeated parameters as one list, and refuses a malformed name or one given twice', () => {
    expect(parseMemberQuery('include=author,reviews&filter[x]=1&fields=title')).toEqual({
      include: ['author', 'reviews'],
      fields: ['title'],
    });
    expect(parseMemberQuery('include=author&fields=a&include=reviews&fields=b')).toEqual({
      include: ['author', 'reviews'],
      fields: ['a', 'b'],
    });
    expect(parseMemberQuery('page=2')).toEqual({});
    for (const bad of [
      'include=',
      'include=a,,b',
      'include=a%20b',
      'include=a,a',
      'include=a&include=a',
      'fields=a,b&fields=b',
      'include=a&include=',
    ]) {
      expect(() => parseMemberQuery(bad), bad).toThrow(/include|fields/);
    }
  });
});

describe('a context made without an API', () => {
  it('reaches the other resources and spans them in one transaction when given a store', async () => {
    const { createContext } = await import('@resourcery/core/adapter');
    const ctx = createContext(books, 'create', { store: memoryStore(), resources: [authors] });
    const author = await ctx.collectionOf(authors).create({ name: 'Le Guin' });
    await expect(
      ctx.transaction(async () => {
        await ctx.collection.create({ title: 'Earthsea', authorId: author.id, label: 'x' });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const page = { where: [], order: [{ field: 'id', direction: 'asc' as const }], limit: 10, offset: 0, count: true };
    expect((await ctx.collection.list(page)).total).toBe(0);
    expect(() => createContext(books, 'create', {})).toThrow(/collection or a store/);
  });
});
