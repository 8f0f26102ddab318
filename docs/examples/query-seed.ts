// The records the examples of docs/query.md are answered from: examples/library's authors and
// books, created in this order (ids 1, 2, 3... on an empty store).
export const AUTHORS = [
  { name: 'Ursula K. Le Guin', country: 'US' },
  { name: 'J. R. R. Tolkien', country: 'UK' },
  { name: 'Terry Pratchett', country: 'UK' },
  { name: 'Frank Herbert', country: 'US' },
  { name: 'Anonymous', country: null },
] as const;

export const BOOKS = [
  { title: 'A Wizard of Earthsea', authorId: 1, year: 1968, price: '8.99', isbn: '9780547773742' },
  { title: 'The Left Hand of Darkness', authorId: 1, year: 1969, price: 10.5 },
  { title: 'The Hobbit', authorId: 2, year: 1937, price: '12', publishedAt: '1937-09-21T00:00:00+01:00' },
  { title: 'The Fellowship of the Ring', authorId: 2, year: 1954, price: '15.00' },
  { title: 'Guards! Guards!', authorId: 3, year: 1989, price: '9.99' },
  { title: '100% Discworld_Companion', authorId: 3, year: null, price: null },
  { title: 'Dune', authorId: 4, year: 1965, price: '10' },
  { title: 'the hobbit (a parody)', authorId: 5, year: null, price: '4.50' },
] as const;
