import { belongsTo, defineResource, hasMany } from '@resourcery/core';
import { Author, Book, Review } from './models.js';

export const authors = defineResource({
  name: 'author',
  model: Author,
  timestamps: true,
  relations: { books: hasMany(Book, { foreignKey: 'authorId' }) },
});

export const books = defineResource({
  name: 'book',
  model: Book,
  timestamps: true,
  unique: ['isbn'],
  relations: {
    author: belongsTo(Author, { foreignKey: 'authorId' }),
    reviews: hasMany(Review, { foreignKey: 'bookId' }),
  },
});

export const reviews = defineResource({
  name: 'review',
  model: Review,
  timestamps: { updatedAt: false },
  pagination: 'cursor',
  relations: { book: belongsTo(Book, { foreignKey: 'bookId', onDelete: 'cascade' }) },
});

/** The library's resources, referenced ones first. */
export const resources = [authors, books, reviews] as const;
