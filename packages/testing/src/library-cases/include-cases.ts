import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, parseLinks } from '../http-client.js';
import {
  type AuthorJson,
  type BookJson,
  codePointOrder,
  createAuthor,
  createBook,
  createBooks,
  createReview,
  list,
  type ReviewJson,
  show,
} from './library-fixtures.js';

// CONTRACT part 3, "Relations": `include=` on show and index.

interface Library {
  /** Two books, the first with two reviews. */
  leGuin: AuthorJson;
  earthsea: BookJson;
  dispossessed: BookJson;
  reviews: ReviewJson[];
  /** An author with one book and no reviews. */
  herbert: AuthorJson;
  dune: BookJson;
  /** An author without books. */
  nobody: AuthorJson;
}

async function library(api: Parameters<typeof createAuthor>[0]): Promise<Library> {
  const leGuin = await createAuthor(api, { name: 'Ursula K. Le Guin', country: 'US' });
  const herbert = await createAuthor(api, { name: 'Frank Herbert', country: null });
  const nobody = await createAuthor(api, { name: 'Nobody' });
  const earthsea = await createBook(api, leGuin.id, { title: 'A Wizard of Earthsea', year: 1968, price: '9.99' });
  const dune = await createBook(api, herbert.id, { title: 'Dune', year: 1965 });
  const dispossessed = await createBook(api, leGuin.id, { title: 'The Dispossessed', year: 1974 });
  const reviews = [await createReview(api, earthsea.id, { rating: 5 }), await createReview(api, earthsea.id)];
  reviews.sort((a, b) => codePointOrder(a.id, b.id));
  return { leGuin, earthsea, dispossessed, reviews, herbert, dune, nobody };
}

export const includeCases = group('include', library, {
  async 'include=author adds the book’s author (show)'(api, { leGuin, earthsea }) {
    const reply = await api.get(`/books/${earthsea.id}?include=author`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ book: { ...earthsea, author: leGuin } });
  },

  async 'include=author adds each book’s author (index)'(api, { leGuin, herbert, earthsea, dune, dispossessed }) {
    const ids = [earthsea, dune, dispossessed].map((book) => `filter[id][]=${book.id}`).join('&');
    const books = await list(api, `/books?${ids}&sort=id&include=author`);
    expect(books).toEqual([
      { ...earthsea, author: leGuin },
      { ...dune, author: herbert },
      { ...dispossessed, author: leGuin },
    ]);
  },

  async 'include=books adds an author’s books ordered by id, [] when none (show and index)'(api, state) {
    const { leGuin, herbert, nobody, earthsea, dispossessed, dune } = state;
    expect(await show(api, `/authors/${leGuin.id}?include=books`, 'author')).toEqual({
      ...leGuin,
      books: [earthsea, dispossessed],
    });
    expect(await show(api, `/authors/${nobody.id}?include=books`, 'author')).toEqual({ ...nobody, books: [] });
    const ids = [leGuin, herbert, nobody].map((author) => `filter[id][]=${author.id}`).join('&');
    expect(await list(api, `/authors?${ids}&sort=-name&include=books`)).toEqual([
      { ...leGuin, books: [earthsea, dispossessed] },
      { ...nobody, books: [] },
      { ...herbert, books: [dune] },
    ]);
  },

  async 'include=author,reviews adds both; reviews ordered by id'(api, { leGuin, herbert, earthsea, dune, reviews }) {
    expect(await show(api, `/books/${earthsea.id}?include=author,reviews`, 'book')).toEqual({
      ...earthsea,
      author: leGuin,
      reviews,
    });
    expect(await show(api, `/books/${dune.id}?include=reviews,author`, 'book')).toEqual({
      ...dune,
      author: herbert,
      reviews: [],
    });
    const review = reviews[0] as ReviewJson;
    expect(await show(api, `/reviews/${review.id}?include=book`, 'review')).toEqual({ ...review, book: earthsea });
  },

  async 'include: show’s ETag covers the included records (no 304 once one of them changed)'(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const path = `/books/${book.id}?include=author,reviews`;
    const first = await api.get(path);
    const tag = first.headers.get('etag');
    expect(first.status, first.text).toBe(200);
    expect((await api.send('GET', path, { headers: { 'if-none-match': tag ?? '' } })).status).toBe(304);
    const renamed = await api.json('PATCH', `/authors/${author.id}`, { name: 'Renamed' });
    expect(renamed.status, renamed.text).toBe(200);
    const afterRename = await api.send('GET', path, { headers: { 'if-none-match': tag ?? '' } });
    expect(afterRename.status, 'the included author changed').toBe(200);
    expect(afterRename.body.book.author).toEqual(renamed.body.author);
    const again = afterRename.headers.get('etag') ?? '';
    await createReview(api, book.id);
    const afterReview = await api.send('GET', path, { headers: { 'if-none-match': again } });
    expect(afterReview.status, 'a review was added').toBe(200);
    expect(afterReview.body.book.reviews).toHaveLength(1);
  },

  async 'include: an unknown relation is 400 naming it (show and index)'(api, { earthsea, leGuin, reviews }) {
    const review = reviews[0] as ReviewJson;
    const refused: readonly [string, string][] = [
      [`/books?include=publisher`, 'publisher'],
      [`/books/${earthsea.id}?include=publisher`, 'publisher'],
      [`/books?include=author,publisher`, 'publisher'],
      [`/books/${earthsea.id}?include=reviews,publisher`, 'publisher'],
      [`/books?include=Author`, 'Author'],
      [`/authors?include=author`, 'author'],
      [`/authors/${leGuin.id}?include=reviews`, 'reviews'],
      [`/reviews/${review.id}?include=author`, 'author'],
      [`/reviews?include=books`, 'books'],
    ];
    for (const [path, name] of refused) {
      const problem = expectProblem(await api.get(path), 400);
      expect(problem.detail, path).toContain(name);
    }
  },

  async 'include with filters, sort and pages keeps X-Total-Count and Link (include kept)'(api) {
    const author = await createAuthor(api);
    const books = await createBooks(api, author.id, [{ year: 3 }, { year: 1 }, { year: 5 }, { year: 2 }, { year: 4 }]);
    const review = await createReview(api, (books[1] as BookJson).id);
    const expected = [...books]
      .sort((a, b) => (a.year as number) - (b.year as number))
      .map((book) => ({ ...book, author, reviews: book.id === review.bookId ? [review] : [] }));
    const query = `filter[authorId]=${author.id}&sort=year&per_page=2&include=author,reviews`;
    const reply = await api.get(`/books?${query}&page=2`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ books: expected.slice(2, 4) });
    expect(reply.headers.get('x-total-count')).toBe('5');
    const links = parseLinks(reply.headers.get('link'));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    for (const [rel, page] of Object.entries({ first: '1', prev: '1', next: '3', last: '3' })) {
      const params = new URL(api.resolve(links[rel] as string)).searchParams;
      expect(params.get('include'), rel).toBe('author,reviews');
      expect(params.get('page'), rel).toBe(page);
      expect(params.get('filter[authorId]'), rel).toBe(String(author.id));
    }
    const first = await api.get(api.resolve(links.first as string));
    expect(first.body).toEqual({ books: expected.slice(0, 2) });
    const last = await api.get(api.resolve(links.last as string));
    expect(last.body).toEqual({ books: expected.slice(4) });
  },

  async 'include on an empty page adds nothing and answers the empty list'(api, { leGuin }) {
    const reply = await api.get(`/books?filter[authorId]=${leGuin.id}&page=9&include=author,reviews`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ books: [] });
  },
});

export const includeLimitCases = group(
  'include limit',
  async (api) => {
    const prolific = await createAuthor(api, { name: 'Prolific' });
    const books: BookJson[] = [];
    for (let i = 0; i < 102; i++) books.push(await createBook(api, prolific.id, { year: i }));
    const modest = await createAuthor(api, { name: 'Modest' });
    const modestBooks = await createBooks(api, modest.id, [{}, {}]);
    return { prolific, books, modest, modestBooks };
  },
  {
    async 'include=books adds at most 100 books, the first 100 by id (show)'(api, { prolific, books }) {
      const author = await show<AuthorJson & { books: BookJson[] }>(
        api,
        `/authors/${prolific.id}?include=books`,
        'author',
      );
      expect(author.books).toHaveLength(100);
      expect(author).toEqual({ ...prolific, books: books.slice(0, 100) });
    },

    async 'include=books caps each author at 100, not the page (index)'(api, { prolific, books, modest, modestBooks }) {
      const listed = await list(api, `/authors?filter[id][]=${prolific.id}&filter[id][]=${modest.id}&include=books`);
      expect(listed).toEqual([
        { ...modest, books: modestBooks },
        { ...prolific, books: books.slice(0, 100) },
      ]);
    },
  },
);

/** Runs `work` for 0..count-1, `width` at a time. */
async function inBatches(count: number, width: number, work: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => work(start + k)));
  }
}

/**
 * CONTRACT, "What no answer may reveal": one answer carries at most 1,000 included records in
 * all; a request whose included records would exceed that is a 400 naming `include`, and a page
 * whose included records fit is answered whole.
 */
export const includeBoundCases = group(
  'include bound',
  async (api) => {
    const author = await createAuthor(api, { name: 'Bound' });
    const books = await createBooks(
      api,
      author.id,
      Array.from({ length: 11 }, () => ({})),
    );
    // 91 reviews per book: 11 books hold 1,001 of them, 10 books 910.
    await inBatches(books.length * 91, 16, (i) => createReview(api, (books[i % books.length] as BookJson).id));
    return { author, books };
  },
  {
    async 'include: more than 1,000 included records in one answer is 400 naming include'(api, { author }) {
      for (const path of [
        `/books?filter[authorId]=${author.id}&include=reviews`,
        `/books?filter[authorId]=${author.id}&per_page=11&include=author,reviews`,
      ]) {
        const problem = expectProblem(await api.get(path), 400);
        expect(problem.detail, path).toMatch(/^include: .*more than 1000 included records/);
      }
    },

    async 'include: a page whose included records fit is answered whole'(api, { author, books }) {
      const listed = await list<BookJson & { reviews: ReviewJson[]; author: AuthorJson }>(
        api,
        `/books?filter[authorId]=${author.id}&sort=id&per_page=10&include=reviews,author`,
      );
      expect(listed.map((book) => book.id)).toEqual(books.slice(0, 10).map((book) => book.id));
      for (const book of listed) {
        expect(book.reviews).toHaveLength(91);
        expect(book.author).toEqual(author);
      }
    },
  },
);
