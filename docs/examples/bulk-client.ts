// The bulk writes and upserts of the typed client (docs/client.md, "Bulk writes and upserts").
import { etagOf, ResourceError, resourceClient } from '@resourcery/client';
import type { tags, tasks } from './tasks.js';

const taskClient = (baseUrl: string) => resourceClient<typeof tasks>({ baseUrl, name: 'task' });

/** Plans two tasks in one request, finishes one of them and renames the other in another, then clears both. */
export async function planAndClear(baseUrl = '/api'): Promise<void> {
  const client = taskClient(baseUrl);
  // All or none, answered in the order given.
  const [draft, review] = await client.createMany([{ title: 'Write the draft' }, { title: 'Review it' }]);
  if (!draft || !review) throw new Error('the server answered fewer tasks than it was sent');
  const read = await client.show(draft.id); // a single record comes with its ETag
  await client.updateMany([
    { id: draft.id, _etag: etagOf(read), state: 'done' }, // a 412 for the whole batch if it changed since
    { id: review.id, title: 'Review the draft' },
  ]);
  await client.destroyMany([draft.id, review.id]); // DELETE /api/tasks?filter[id][]=…&filter[id][]=…
}

/** Imports tasks from lines of text; answers the server's messages by JSON Pointer when one is refused. */
export async function importTasks(titles: string[], baseUrl = '/api'): Promise<Record<string, readonly string[]>> {
  try {
    await taskClient(baseUrl).createMany(titles.map((title) => ({ title })));
    return {};
  } catch (error) {
    // Nothing was stored; `errors` names each offending field: { '/tasks/1/title': ['must be …'] }.
    if (error instanceof ResourceError && error.status === 422) return error.errors;
    throw error;
  }
}

/** Saves a tag by its name: the tag of that name gets the color, or a tag is created. */
export function saveTag(name: string, color: string, baseUrl = '/api') {
  return resourceClient<typeof tags>({ baseUrl, name: 'tag' }).upsert('name', { name, color });
}
