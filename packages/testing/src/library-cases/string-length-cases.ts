import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { enc } from '../http-client.js';
import { longText } from '../long-text.js';
import {
  type AuthorJson,
  type BookJson,
  createAuthor,
  createBook,
  createReview,
  freshIsbn,
  list,
  type ReviewJson,
  show,
} from './library-fixtures.js';

// A value validation accepts is stored, whatever its length: no column, index or key of any
// store may refuse it (an index entry has a size limit in bytes, so the characters here take 4).

const fill = longText;

export const stringLengthCases = group('string lengths', empty, {
  async 'string lengths: the longest valid value of every string is stored, shown, found and sorted'(api) {
    const author = await createAuthor(api, { name: fill('a', 200), country: fill('c', 100) });
    expect(await show<AuthorJson>(api, `/authors/${author.id}`, 'author')).toEqual(author);
    expect(author.name).toBe(fill('a', 200));
    const isbn = `${freshIsbn()}${longText('𝄞', 4)}`; // 17 characters, unique
    const book = await createBook(api, author.id, { title: fill('t', 500), isbn });
    expect(book).toMatchObject({ title: fill('t', 500), isbn });
    const review = await createReview(api, book.id, { body: fill('r', 5000) });
    expect(await show<ReviewJson>(api, `/reviews/${review.id}`, 'review')).toEqual(review);
    expect(review.body).toBe(fill('r', 5000));
    const changed = await api.json('PATCH', `/reviews/${review.id}`, { body: fill('s', 5000) });
    expect(changed.status, changed.text).toBe(200);

    const found = await list<BookJson>(api, `/books?filter[title]=${enc(book.title)}&sort=-title`);
    expect(found.map((record) => record.id)).toEqual([book.id]);
    const byIsbn = await list<BookJson>(api, `/books?filter[isbn]=${enc(isbn)}`);
    expect(byIsbn.map((record) => record.id)).toEqual([book.id]);
    const named = await list<AuthorJson>(api, `/authors?filter[name]=${enc(author.name)}&sort=country`);
    expect(named.map((record) => record.id)).toEqual([author.id]);
    const ofBook = await list<ReviewJson>(api, `/reviews?filter[bookId]=${book.id}`);
    expect(ofBook.map((record) => record.body)).toEqual([fill('s', 5000)]);
  },
});
