import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { enc, expectProblem } from '../http-client.js';
import { type BookJson, createAuthor, createBook, createBooks, expectErrors, list, total } from './library-fixtures.js';

// CONTRACT part 3, "Types on the wire": date-time (book.publishedAt, the timestamps).

const NOT_RFC_3339: readonly unknown[] = [
  '2024-05-01', // a date alone
  '2024-05-01T12:00:00', // no offset
  '2024-05-01T12:00Z', // no seconds
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-05-01T24:00:00Z',
  '2024-05-01T12:00:00+2:00',
  '1714564800000',
  'yesterday',
  '',
  1714564800000,
  true,
];

export const dateTimeCases = group('date-time', empty, {
  async 'date-time: answered in UTC with milliseconds, whatever offset was sent'(api) {
    const author = await createAuthor(api);
    const sent = [
      ['2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000Z'],
      ['2024-05-01T07:30:00-04:30', '2024-05-01T12:00:00.000Z'],
      ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
      ['2024-05-01T12:00:00.5Z', '2024-05-01T12:00:00.500Z'],
      ['2024-05-01T00:30:00.250+01:00', '2024-04-30T23:30:00.250Z'],
      ['2024-12-31T23:00:00-02:00', '2025-01-01T01:00:00.000Z'],
    ] as const;
    for (const [input, expected] of sent) {
      const book = await createBook(api, author.id, { publishedAt: input });
      expect(book.publishedAt, input).toBe(expected);
      const shown = await api.get(`/books/${book.id}`);
      expect(shown.body.book.publishedAt).toBe(expected);
    }
    const listed = await list<BookJson>(api, `/books?filter[authorId]=${author.id}&per_page=100`);
    expect(listed.map((book) => book.publishedAt).sort()).toEqual(sent.map(([, expected]) => expected).sort());
  },

  async 'date-time: a value that is not RFC 3339 is 422, on create and update, and nothing is written'(api) {
    const author = await createAuthor(api);
    const kept = await createBook(api, author.id, { publishedAt: '2020-01-01T00:00:00Z' });
    for (const value of NOT_RFC_3339) {
      const created = await api.json('POST', '/books', { title: 'Bad date', authorId: author.id, publishedAt: value });
      expectErrors(created, { publishedAt: expect.any(Array) });
      const updated = await api.json('PATCH', `/books/${kept.id}`, { publishedAt: value });
      expectErrors(updated, { publishedAt: expect.any(Array) });
    }
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(1);
    expect((await api.get(`/books/${kept.id}`)).body.book).toEqual(kept);
  },

  async 'date-time: a filter value is converted to UTC; one that is not RFC 3339 is 400'(api) {
    const author = await createAuthor(api);
    const [noon] = await createBooks(api, author.id, [
      { publishedAt: '2024-05-01T12:00:00Z' },
      { publishedAt: '2024-05-01T12:00:01Z' },
      { publishedAt: null },
    ]);
    for (const value of ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z', '2024-05-01T14:00:00+02:00']) {
      const found = await list<BookJson>(api, `/books?filter[authorId]=${author.id}&filter[publishedAt]=${enc(value)}`);
      expect(found, value).toEqual([noon]);
    }
    for (const value of ['2024-05-01', 'noon', '2024-05-01T12:00:00', '1714564800000']) {
      const reply = await api.get(`/books?filter[publishedAt]=${enc(value)}`);
      expect(expectProblem(reply, 400).detail).toContain('publishedAt');
    }
    expectProblem(await api.get(`/authors?filter[createdAt]=${enc('not a date')}`), 400);
  },

  async 'date-time: sorts by instant, not by the text sent; null first ascending, last descending'(api) {
    const author = await createAuthor(api);
    const [late, early, none, middle, none2] = await createBooks(api, author.id, [
      { publishedAt: '2024-05-01T01:00:00+05:00' }, // 2024-04-30T20:00Z
      { publishedAt: '2024-04-30T19:00:00Z' },
      { publishedAt: null },
      { publishedAt: '2024-04-30T21:30:00+01:00' }, // 2024-04-30T20:30Z: last, though its text sorts second
      {},
    ]);
    const base = `/books?filter[authorId]=${author.id}&per_page=100`;
    const ascending = await list<BookJson>(api, `${base}&sort=publishedAt`);
    expect(ascending.map((book) => book.id)).toEqual([none, none2, early, late, middle].map((book) => book?.id));
    const descending = await list<BookJson>(api, `${base}&sort=-publishedAt`);
    expect(descending.map((book) => book.id)).toEqual([middle, late, early, none, none2].map((book) => book?.id));
  },
});
