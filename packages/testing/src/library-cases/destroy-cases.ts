import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import {
  createAuthor,
  createBook,
  createBooks,
  createReview,
  list,
  type ReviewJson,
  show,
} from './library-fixtures.js';

// CONTRACT part 3, "Relations": destroying a record others refer to is 409 naming the relation
// (restrict, the default), unless the relation cascades (the library's review.book does).

export const destroyCases = group('destroy with relations', empty, {
  async 'destroy: an author who still has books is 409 problem+json naming books, nothing deleted'(api) {
    const author = await createAuthor(api);
    const books = await createBooks(api, author.id, [{}, {}]);
    const review = await createReview(api, (books[0] as { id: number }).id);
    const reply = await api.send('DELETE', `/authors/${author.id}`);
    const problem = expectProblem(reply, 409);
    expect(problem.detail).toMatch(/\bbooks\b/);
    expect(problem).not.toHaveProperty('errors');
    expect(await show(api, `/authors/${author.id}`, 'author')).toEqual(author);
    expect(await list(api, `/books?filter[authorId]=${author.id}&sort=id`)).toEqual(books);
    expect(await show(api, `/reviews/${review.id}`, 'review')).toEqual(review);
  },

  async 'destroy: an author whose books are gone can be destroyed'(api) {
    const author = await createAuthor(api);
    const [book] = await createBooks(api, author.id, [{}]);
    expect((await api.send('DELETE', `/books/${book?.id}`)).status).toBe(204);
    expect((await api.send('DELETE', `/authors/${author.id}`)).status).toBe(204);
    expectProblem(await api.get(`/authors/${author.id}`), 404);
  },

  async 'destroy: an author whose books moved to another author can be destroyed'(api) {
    const author = await createAuthor(api);
    const heir = await createAuthor(api);
    const book = await createBook(api, author.id);
    expect((await api.json('PATCH', `/books/${book.id}`, { authorId: heir.id })).status).toBe(200);
    expect((await api.send('DELETE', `/authors/${author.id}`)).status).toBe(204);
    expect((await show<{ authorId: number }>(api, `/books/${book.id}`, 'book')).authorId).toBe(heir.id);
  },

  async "destroy: a book's reviews go with it (cascade); other books' reviews stay"(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const other = await createBook(api, author.id);
    const gone: ReviewJson[] = [];
    for (let i = 1; i <= 3; i++) gone.push(await createReview(api, book.id, { rating: i }));
    const kept = await createReview(api, other.id);
    expect((await api.send('DELETE', `/books/${book.id}`)).status).toBe(204);
    for (const review of gone) expectProblem(await api.get(`/reviews/${review.id}`), 404);
    expect(await list(api, `/reviews?filter[bookId]=${book.id}`)).toEqual([]);
    expect(await list(api, `/reviews?filter[bookId]=${other.id}`)).toEqual([kept]);
    expectProblem(await api.send('DELETE', `/books/${book.id}`), 404);
  },

  async 'destroy: a review can be destroyed without touching its book'(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const review = await createReview(api, book.id);
    expect((await api.send('DELETE', `/reviews/${review.id}`)).status).toBe(204);
    expect(await show(api, `/books/${book.id}`, 'book')).toEqual(book);
    expectProblem(await api.send('DELETE', `/reviews/${review.id}`), 404);
  },
});
