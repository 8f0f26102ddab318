// The relational resources of CONTRACT part 3 (authors, their books, the books' reviews) for
// the tests of what spans several resources: the OpenAPI document, includes, the typed client.
// They are examples/library's own declarations, so that the tests check what the example serves.
import 'reflect-metadata';

export { Author, Book, Review } from '../examples/library/src/models.js';
export { authors, books, resources as library, reviews } from '../examples/library/src/resources.js';
