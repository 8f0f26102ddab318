import 'reflect-metadata';
import { type Api, belongsTo, createApi, defineResource, memoryStore } from '@resourcery/core';
import { type NeutralResponse, resourceSchemas } from '@resourcery/core/adapter';
import { type CollectionSchema, type Store, StoreUnavailable } from '@resourcery/core/store';
import { IsIn, IsInt, IsString, Length } from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';

// Live events beyond the tracker suite, on the memory store and the core alone (`api.handle`, the
// stream read as the adapters read it): heartbeats, the bounded buffer, the cap on open streams,
// shutdown, relation filters, replay while writes go on, and what a transaction logs.

class Project {
  @IsString() @Length(1, 50) name!: string;
}

class Task {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsInt() projectId!: number;
}

const projects = defineResource({ name: 'project', model: Project });
const tasks = defineResource({
  name: 'task',
  model: Task,
  live: true,
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
});

const apis: Api[] = [];
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close();
});

function serve(store: Store = memoryStore(), live: Parameters<typeof createApi>[0]['live'] = {}) {
  const api = createApi({ resources: [projects, tasks], store, live, logError: () => {} });
  apis.push(api);
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, rawQuery = '') =>
    api.handle({
      method,
      path,
      basePath: '/api',
      rawQuery,
      headers: { 'content-type': 'application/json', ...headers },
      parsedBody: body,
    });
  const watch = (rawQuery = '', headers: Record<string, string> = {}) =>
    send('GET', '/tasks/events', undefined, { accept: 'text/event-stream', ...headers }, rawQuery);
  return { api, send, watch };
}

/** The chunks of a stream, read one by one as an adapter reads them. */
function reader(response: NeutralResponse) {
  expect(response.status, response.body).toBe(200);
  const iterator = (response.stream as AsyncIterable<string>)[Symbol.asyncIterator]();
  return {
    iterator,
    /** The next event (comments and `retry:` skipped), parsed. */
    async event(): Promise<{ id: string; event: string; data: Record<string, unknown> } | undefined> {
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return undefined;
        const match = /^id: (.+)\nevent: (.+)\ndata: (.+)\n\n$/.exec(value);
        if (match) return { id: match[1] as string, event: match[2] as string, data: JSON.parse(match[3] as string) };
      }
    },
  };
}

describe('live events', () => {
  it('send a comment line when idle, and end when the API closes', async () => {
    const { api, watch } = serve(memoryStore(), { heartbeatMs: 20 });
    const stream = reader(await watch());
    expect((await stream.iterator.next()).value).toBe('retry: 1000\n\n');
    expect((await stream.iterator.next()).value).toBe(': keep-alive\n\n');
    await api.close();
    expect(await stream.iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('drop a client that does not read past the buffer, and answer 503 with Retry-After past the most streams', async () => {
    const { send, watch } = serve(memoryStore(), { bufferLimit: 2_000, maxStreams: 2 });
    await send('POST', '/projects', { name: 'P' });
    const slow = reader(await watch());
    const other = await watch();
    const refused = await watch();
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('5');
    // Nobody reads `slow`: what waits for it grows until the stream ends and frees its place.
    for (let n = 0; n < 40; n++)
      await send('POST', '/tasks', { title: `Task ${n} ${'x'.repeat(80)}`, state: 'todo', projectId: 1 });
    expect(await slow.iterator.next()).toEqual({ value: undefined, done: true });
    const again = await watch();
    expect(again.status).toBe(200);
    await (other.stream as AsyncIterable<string>)[Symbol.asyncIterator]().return?.();
  });

  it('test relation filters against the related record (filter[project.name])', async () => {
    const { send, watch } = serve();
    await send('POST', '/projects', { name: 'Roadmap' });
    await send('POST', '/projects', { name: 'Other' });
    const stream = reader(await watch('filter[project.name]=Roadmap'));
    await send('POST', '/tasks', { title: 'elsewhere', state: 'todo', projectId: 2 });
    await send('POST', '/tasks', { title: 'here', state: 'todo', projectId: 1 });
    expect((await stream.event())?.data).toMatchObject({ task: { title: 'here' } });
    await send('PATCH', '/tasks/2', { projectId: 2 }); // leaves the filter: sent as an update
    expect(await stream.event()).toMatchObject({ event: 'updated', data: { task: { id: 2, projectId: 2 } } });
    await send('PATCH', '/tasks/1', { title: 'still elsewhere' });
    await send('DELETE', '/tasks/2');
    await send('POST', '/tasks', { title: 'back here', state: 'done', projectId: 1 });
    expect((await stream.event())?.data).toMatchObject({ task: { id: 3 } });
  });

  it('replay from Last-Event-ID while writes go on: every later event once, in commit order', async () => {
    const { send, watch } = serve();
    await send('POST', '/projects', { name: 'P' });
    const first = reader(await watch());
    await send('POST', '/tasks', { title: 'T0', state: 'todo', projectId: 1 });
    const mark = await first.event();
    const writes = (async () => {
      for (let n = 1; n <= 60; n++) await send('POST', '/tasks', { title: `T${n}`, state: 'todo', projectId: 1 });
    })();
    await new Promise((resolve) => setTimeout(resolve, 1));
    const replay = reader(await watch('', { 'last-event-id': mark?.id as string }));
    await writes;
    const titles: string[] = [];
    while (titles.length < 60) {
      const event = await replay.event();
      titles.push(String((event?.data.task as { title?: string } | undefined)?.title));
    }
    expect(titles).toEqual(Array.from({ length: 60 }, (_, n) => `T${n + 1}`));
  });

  it('log what a transaction commits, never what it undoes', async () => {
    const store = memoryStore();
    const { send, watch } = serve(store);
    await send('POST', '/projects', { name: 'P' });
    const stream = reader(await watch());
    const schema = resourceSchemas([projects, tasks])[1] as CollectionSchema;
    await store
      .transaction(async (tx) => {
        await tx.collection(schema).create({ title: 'undone', state: 'todo', projectId: 1 });
        await tx.transaction(async (inner) =>
          inner.collection(schema).create({ title: 'undone too', state: 'todo', projectId: 1 }),
        );
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await send('POST', '/tasks', { title: 'kept', state: 'todo', projectId: 1 });
    expect((await stream.event())?.data).toMatchObject({ task: { title: 'kept' } });
  });

  it('answer 503 when the change log cannot be read, and leave no stream open behind', async () => {
    const store = memoryStore();
    const log = store.changes();
    const failing: Store = {
      collection: (schema) => store.collection(schema),
      transaction: (work, options) => store.transaction(work, options),
      init: (schemas) => store.init?.(schemas) ?? Promise.resolve(),
      secret: (name) => store.secret(name),
      changes: () =>
        Object.assign(Object.create(log) as typeof log, {
          read: () => Promise.reject(new StoreUnavailable('the change log is down')),
        }),
    };
    const { send, watch } = serve(failing, { maxStreams: 1 });
    await send('POST', '/projects', { name: 'P' });
    await send('POST', '/tasks', { title: 'T', state: 'todo', projectId: 1 });
    const epoch = await log.epoch();
    const refused = await watch('', { 'last-event-id': `${epoch}-0` }); // a replay reads the log
    expect(refused.status).toBe(503);
    expect(refused.stream).toBeUndefined();
    // Its place among the (at most one) streams was given back.
    expect((await watch()).status).toBe(200);
  });
});
