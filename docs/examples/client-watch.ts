// Live events with the typed client (docs/client.md, "Live events"): a shelf of books kept in
// step with the server, loaded once the stream is open, reloaded after a reset, until closed.
import { ResourceError, resourceClient, type Watch } from '@resourcery/client';
import type { books } from './book.js';

type BookRecord = { id: number; name: string; author: string };

export function watchShelf(
  baseUrl: string,
  token: () => Promise<string | undefined>,
  shelf: Map<number, BookRecord>,
  onChange: () => void,
): Watch {
  const client = resourceClient<typeof books>({ baseUrl, name: 'book', token });
  const filter = { author: 'Frank Herbert' };
  const reload = async () => {
    shelf.clear();
    for await (const book of client.each({ filter })) shelf.set(book.id, book);
    onChange();
  };
  let loaded = false;
  return client.watch(
    { filter },
    (event) => {
      if (event.type === 'reset') return void reload(); // events were missed: start again
      if (event.type === 'destroyed') shelf.delete(event.id);
      else shelf.set(event.record.id, event.record); // created or updated, as a show answers it
      onChange();
    },
    {
      // Load once the stream is open, so that no change falls between the load and the stream.
      onOpen: () => {
        if (!loaded) void reload();
        loaded = true;
      },
      // Network errors are retried; a ResourceError here (401, 403) stopped the watch.
      onError: (error) => {
        if (error instanceof ResourceError) console.warn(`live updates stopped: ${error.message}`);
      },
    },
  );
}
