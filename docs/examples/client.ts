// The typed client of docs/client.md: its types come from the server's declaration, with no code
// generation. Each function is one section of the page.
import { etagOf, ResourceError, type ResourceType, resourceClient } from '@resourcery/client';
import type { books } from './book.js'; // a type-only import: nothing of the server is bundled

type Client = ReturnType<typeof resourceClient<typeof books>>;

/** The five actions, and a page of an index. */
export async function tour(baseUrl = 'http://localhost:3000/api') {
  const client = resourceClient<typeof books>({ baseUrl, name: 'book' });

  const dune = await client.create({ name: 'Dune', author: 'Frank Herbert' }); // { id, name, author }
  await client.show(dune.id);
  await client.update(dune.id, { name: 'Dune Messiah' }); // only the fields given change
  await client.destroy(dune.id);

  const { records, total, next, prev, last } = await client.index({
    filter: { author: ['Frank Herbert', 'Ursula K. Le Guin'] }, // a list is "any of"
    sort: ['-name', 'id'],
    page: 2,
    perPage: 20,
  });
  return { records, total, next, prev, last };
}

// A client that cannot import the server's types (another repository) writes the resource type by hand.
type Books = ResourceType<{ name: string; author: string }, 'book'>;
export const handWritten = resourceClient<Books>({ baseUrl: '/api', name: 'book' });

/** Headers for every request from a function (called per request), and a signal for one call. */
export async function withSession(session: { language(): Promise<string> }, baseUrl = '/api') {
  const client = resourceClient<typeof books>({
    baseUrl,
    name: 'book',
    headers: async () => ({ 'accept-language': await session.language() }),
  });
  const controller = new AbortController();
  await client.index({ sort: '-id' }, { signal: controller.signal });
}

/** Every record of every page, following `next`. */
export async function printAll(client: Client) {
  for await (const book of client.each({ filter: { author: 'Frank Herbert' }, perPage: 100 })) {
    console.log(book.name);
  }
}

/** What a form does with the answer: field messages on a 422, another page on a 404. */
export async function save(
  client: Client,
  form: { showErrors(errors: Readonly<Record<string, readonly string[]>>): void },
  router: { go(path: string): void },
) {
  try {
    await client.create({ name: '', author: 'Frank Herbert' });
  } catch (error) {
    if (!(error instanceof ResourceError)) throw error; // a network failure: fetch's own TypeError
    if (error.status === 422)
      form.showErrors(error.errors); // { name: ['must be between 1 and 500 characters long'] }, by field
    else if (error.code === 'not_found') router.go('/books');
    else throw error;
  }
}

/** Conditional requests: revalidate a copy, and write only the version that was read. */
export async function rename(client: Client, id: number, name: string) {
  const book = await client.show(id);
  const again = await client.show(id, { ifNoneMatch: book }); // a 304: `book` itself, nothing downloaded
  try {
    return await client.update(id, { name }, { ifMatch: again }); // If-Match: etagOf(again)
  } catch (error) {
    if (error instanceof ResourceError && error.code === 'precondition_failed') {
      console.log(`book ${id} changed since version ${etagOf(again)}: read it again`); // a 412
    }
    throw error;
  }
}
