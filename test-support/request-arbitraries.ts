import fc from 'fast-check';

// Random requests for the "never a 500" properties, shared by every store's run: query strings
// built from the syntax's own tokens and from arbitrary text, bodies of any shape, content types,
// and path segments, including SQL-injection attempts, NUL bytes and ids beyond every integer type.

const TOKENS = [
  ...['filter', 'sort', 'page', 'per_page', 'name', 'author', 'id', '__proto__', 'constructor', 'prototype'],
  ...['[', ']', '[]', '=', '&', '-', ',', ';', '+', ' ', '"', "'", '%', '%5B', '%5D', '%zz', '%E0%A4%A', '%00'],
  ...['\uD800', '😀', 'é', '0', '1', '100', '101', '-1', '1.5', '1e3', 'abc', '99999999999999999999'],
  ...["' or 1=1 --", '%27', ';drop table books', '\\', '%5C', '*', '_', '%25'],
];

/** A raw query string (without `?`). */
export const queryString = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc.string({ unit: fc.constantFrom(...TOKENS), maxLength: 25 }),
    fc.string({
      unit: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 2 })),
      maxLength: 25,
    }),
  )
  // "#" would start a fragment, which a client never sends.
  .map((query) => query.replace(/#/g, '%23'));

const fields = fc.dictionary(
  fc.oneof(fc.constantFrom('name', 'author', 'id', 'book', '__proto__', 'constructor'), fc.string()),
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(null),
    fc.constantFrom('\u0000', "'; drop table books; --", 'x'.repeat(600)),
  ),
  { maxKeys: 4 },
);

/** A request body's text: JSON of any shape, near-miss books, broken JSON. */
export const bodyText = fc.oneof(
  fc.json({ stringUnit: 'binary' }),
  fields.map((object) => JSON.stringify(object)),
  fields.map((object) => JSON.stringify({ book: object })),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom('', '{', '{"name":', '[]', 'null', '{"__proto__":{"name":"x"}}', '{"constructor":{}}'),
);

/** A `Content-Type`, or none. */
export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  undefined,
);

/** A path segment where an id goes. */
export const segment = fc.oneof(
  fc.constantFrom('1', '2', '3', '0', '-1', '1.5', '1e3', 'abc', '99999999999999999999', '9223372036854775808'),
  fc.constantFrom('2147483648', '%31', '%', '%zz', '%2F', "1'", '1;'),
  fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent),
);
