import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, expectProblem } from '../http-client.js';
import {
  type BookJson,
  codePointOrder,
  createAuthor,
  createBook,
  createReview,
  expectErrors,
  expectReview,
  list,
  type ReviewJson,
  show,
  tick,
  total,
  UUID,
} from './library-fixtures.js';

// CONTRACT part 3, "Types on the wire": uuid ids (review), and the default order of a resource
// with uuid ids and timestamps.

/** Ids that are no uuid: each is a 404 on show, update and destroy. */
function notUuids(id: string): string[] {
  return ['1', 'abc', id.replace(/-/g, ''), `${id}0`, id.slice(1), `{${id}}`, `g${id.slice(1)}`, '0'];
}

export const uuidCases = group(
  'uuid ids',
  async (api) => {
    const author = await createAuthor(api);
    return { book: await createBook(api, author.id) };
  },
  {
    async 'uuid: the server assigns a lowercase canonical uuid, sent in Location'(api, { book }) {
      const reply = await api.json('POST', '/reviews', { bookId: book.id, rating: 5, body: 'Great' });
      expect(reply.status, reply.text).toBe(200);
      const review = expectReview(reply.body.review);
      expect(review).toEqual({ id: review.id, bookId: book.id, rating: 5, body: 'Great', createdAt: review.createdAt });
      expect(review.id).toMatch(UUID);
      expect(new URL(reply.headers.get('location') as string, api.baseUrl).pathname).toBe(
        `${new URL(api.baseUrl).pathname}/reviews/${review.id}`,
      );
      expect(await show(api, `/reviews/${review.id}`, 'review')).toEqual(review);
      const other = await createReview(api, book.id);
      expect(other.id).not.toBe(review.id);
    },

    async 'uuid: an id in the body is 422 (read-only), on create and update'(api, { book }) {
      const before = await total(api, '/reviews');
      const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
      expectErrors(await api.json('POST', '/reviews', { id, bookId: book.id, rating: 3 }), { id: expect.any(Array) });
      expect(await total(api, '/reviews')).toBe(before);
      const review = await createReview(api, book.id);
      expectErrors(await api.json('PATCH', `/reviews/${review.id}`, { id }), { id: expect.any(Array) });
      expect(await show(api, `/reviews/${review.id}`, 'review')).toEqual(review);
    },

    async 'uuid: an id that is not a uuid is 404 on show, update and destroy'(api, { book }) {
      const review = await createReview(api, book.id);
      for (const id of notUuids(review.id)) {
        const path = `/reviews/${enc(id)}`;
        expectProblem(await api.get(path), 404);
        expectProblem(await api.json('PATCH', path, { rating: 1 }), 404);
        expectProblem(await api.send('DELETE', path), 404);
      }
      const missing = '00000000-0000-4000-8000-000000000000';
      expectProblem(await api.get(`/reviews/${missing}`), 404);
      expectProblem(await api.send('DELETE', `/reviews/${missing}`), 404);
      expectProblem(await api.get(`/books/${review.id}`), 404);
      expect(await show(api, `/reviews/${review.id}`, 'review')).toEqual(review);
    },

    async 'uuid: an uppercase uuid in the path or a filter names the same record'(api, { book }) {
      const review = await createReview(api, book.id, { rating: 2 });
      const upper = review.id.toUpperCase();
      expect(await show(api, `/reviews/${upper}`, 'review')).toEqual(review);
      const updated = await api.json('PATCH', `/reviews/${upper}`, { rating: 3 });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.review).toEqual({ ...review, rating: 3 });
      expect(await list(api, `/reviews?filter[id]=${upper}`)).toEqual([{ ...review, rating: 3 }]);
      expectProblem(await api.get('/reviews?filter[id]=abc'), 400);
      expect((await api.send('DELETE', `/reviews/${upper}`)).status).toBe(204);
      expectProblem(await api.get(`/reviews/${review.id}`), 404);
    },

    async 'uuid: reviews list by -createdAt then id by default; sort=id orders the uuids as text'(api) {
      const author = await createAuthor(api);
      const book: BookJson = await createBook(api, author.id);
      const created: ReviewJson[] = [];
      for (let i = 0; i < 6; i++) {
        created.push(await createReview(api, book.id, { rating: (i % 5) + 1 }));
        if (i % 2 === 1) await tick(); // pairs created within one millisecond or not: both orders apply
      }
      const listed = await list<ReviewJson>(api, `/reviews?filter[bookId]=${book.id}`);
      const expected = [...created].sort(
        (a, b) => codePointOrder(b.createdAt, a.createdAt) || codePointOrder(a.id, b.id),
      );
      expect(listed).toEqual(expected);
      for (const [index, review] of created.entries()) {
        if (index > 0) expect(review.createdAt >= (created[index - 1] as ReviewJson).createdAt).toBe(true);
      }
      const byId = await list<ReviewJson>(api, `/reviews?filter[bookId]=${book.id}&sort=id`);
      expect(byId).toEqual([...created].sort((a, b) => codePointOrder(a.id, b.id)));
    },
  },
);
