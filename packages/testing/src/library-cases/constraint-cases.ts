import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import {
  type BookJson,
  createAuthor,
  createBook,
  createBooks,
  createReview,
  expectErrors,
  freshIsbn,
  list,
  show,
  total,
} from './library-fixtures.js';

// CONTRACT part 3, "Relations": a unique isbn, foreign keys checked on every write.

const TAKEN = { isbn: ['is already taken'] };

export const uniqueCases = group('unique', empty, {
  async 'unique: a taken isbn is 422 "is already taken" on create, nothing written'(api) {
    const author = await createAuthor(api);
    const isbn = freshIsbn();
    const first = await createBook(api, author.id, { isbn });
    const books = await total(api, '/books');
    expectErrors(await api.json('POST', '/books', { title: 'Copy', authorId: author.id, isbn }), TAKEN);
    expectErrors(await api.json('POST', '/books', { book: { title: 'Copy', authorId: author.id, isbn } }), TAKEN);
    expect(await total(api, '/books')).toBe(books);
    expect(await list(api, `/books?filter[isbn]=${isbn}`)).toEqual([first]);
  },

  async 'unique: a taken isbn is 422 on update, nothing written'(api) {
    const author = await createAuthor(api);
    const [first, second] = (await createBooks(api, author.id, [{ isbn: freshIsbn() }, { isbn: freshIsbn() }])) as [
      BookJson,
      BookJson,
    ];
    const reply = await api.json('PATCH', `/books/${second.id}`, { title: 'Renamed', isbn: first.isbn, year: 2001 });
    expectErrors(reply, TAKEN);
    expect(await show(api, `/books/${second.id}`, 'book')).toEqual(second);
    expect(await show(api, `/books/${first.id}`, 'book')).toEqual(first);
  },

  async 'unique: a book may keep its own isbn, and an isbn given up may be taken again'(api) {
    const author = await createAuthor(api);
    const isbn = freshIsbn();
    const book = await createBook(api, author.id, { isbn });
    const kept = await api.json('PATCH', `/books/${book.id}`, { isbn, title: 'Same isbn' });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.book.isbn).toBe(isbn);
    const other = freshIsbn();
    expect((await api.json('PATCH', `/books/${book.id}`, { isbn: other })).status).toBe(200);
    expect((await createBook(api, author.id, { isbn })).isbn).toBe(isbn);
    expect((await api.send('DELETE', `/books/${book.id}`)).status).toBe(204);
    expect((await createBook(api, author.id, { isbn: other })).isbn).toBe(other);
  },

  async 'unique: creates of one isbn at the same time: exactly one 200, the others 422'(api) {
    const author = await createAuthor(api);
    const isbn = freshIsbn();
    const body = (i: number) => ({ title: `Race ${i}`, authorId: author.id, isbn });
    const replies = await Promise.all([0, 1, 2, 3, 4].map((i) => api.json('POST', '/books', body(i))));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 422, 422, 422, 422]);
    for (const reply of replies) if (reply.status === 422) expectErrors(reply, TAKEN);
    expect(await total(api, `/books?filter[isbn]=${isbn}`)).toBe(1);
  },

  async 'unique: many books may have no isbn (null never collides)'(api) {
    const author = await createAuthor(api);
    const books = await createBooks(api, author.id, [{ isbn: null }, { isbn: null }, {}, {}]);
    expect(books.map((book) => book.isbn)).toEqual([null, null, null, null]);
    const withIsbn = await createBook(api, author.id, { isbn: freshIsbn() });
    const cleared = await api.json('PATCH', `/books/${withIsbn.id}`, { isbn: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(5);
  },
});

/** An author id that names no author: one that was created, then destroyed. */
async function missingAuthorId(api: Parameters<typeof createAuthor>[0]): Promise<number> {
  const gone = await createAuthor(api);
  expect((await api.send('DELETE', `/authors/${gone.id}`)).status).toBe(204);
  return gone.id;
}

export const foreignKeyCases = group('foreign keys', empty, {
  async 'foreign key: a book of an author that does not exist is 422 "does not exist", nothing written'(api) {
    const missing = await missingAuthorId(api);
    const books = await total(api, '/books');
    for (const authorId of [missing, missing + 1_000_000]) {
      const reply = await api.json('POST', '/books', { title: 'Orphan', authorId, isbn: freshIsbn() });
      expectErrors(reply, { authorId: ['does not exist'] });
    }
    expect(await total(api, '/books')).toBe(books);
    expect(await list(api, `/books?filter[authorId]=${missing}`)).toEqual([]);
  },

  async 'foreign key: moving a book to an author that does not exist is 422, nothing written'(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const missing = await missingAuthorId(api);
    const reply = await api.json('PATCH', `/books/${book.id}`, { authorId: missing, title: 'Moved' });
    expectErrors(reply, { authorId: ['does not exist'] });
    expect(await show(api, `/books/${book.id}`, 'book')).toEqual(book);
    const other = await createAuthor(api);
    const moved = await api.json('PATCH', `/books/${book.id}`, { authorId: other.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.book.authorId).toBe(other.id);
  },

  async 'foreign key: a review of a book that does not exist is 422 "does not exist", nothing written'(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const gone = await createBook(api, author.id);
    expect((await api.send('DELETE', `/books/${gone.id}`)).status).toBe(204);
    const reviews = await total(api, '/reviews');
    expectErrors(await api.json('POST', '/reviews', { bookId: gone.id, rating: 5 }), { bookId: ['does not exist'] });
    const review = await createReview(api, book.id);
    const moved = await api.json('PATCH', `/reviews/${review.id}`, { bookId: gone.id, rating: 1 });
    expectErrors(moved, { bookId: ['does not exist'] });
    expect(await total(api, '/reviews')).toBe(reviews + 1);
    expect(await show(api, `/reviews/${review.id}`, 'review')).toEqual(review);
  },

  async 'foreign key: a book created while its author is destroyed: one of them wins, never both'(api) {
    for (let round = 0; round < 5; round++) {
      const author = await createAuthor(api);
      const [destroyed, created] = await Promise.all([
        api.send('DELETE', `/authors/${author.id}`),
        api.json('POST', '/books', { title: 'Race', authorId: author.id }),
      ]);
      const outcome = `${destroyed.status} ${created.status}`;
      expect(['204 422', '409 200'], `${outcome}: ${destroyed.text} ${created.text}`).toContain(outcome);
      if (created.status === 422) expectErrors(created, { authorId: ['does not exist'] });
      else expect(await show(api, `/authors/${author.id}`, 'author')).toEqual(author);
      expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(created.status === 200 ? 1 : 0);
    }
  },
});
