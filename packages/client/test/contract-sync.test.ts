// The client writes out its own copy of the contract (it depends on nothing at run time); these
// tests fail as soon as that copy and the server's (`@resourcery/core/adapter`) disagree.
import 'reflect-metadata';
import { defineResource, openApiDocument } from '@resourcery/core';
import { ACTIONS, BULK_ACTIONS, PROBLEM_STATUS, pluralize as serverPlural } from '@resourcery/core/adapter';
import { IsString } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_ACTIONS } from '../src/actions.js';
import { PROBLEM_CODES, pluralize, type ResourceType, resourceClient, WATCH_EVENT_TYPES } from '../src/index.js';

/** The target of a path of the `books` resource. */
const targetOf = (path: string) =>
  path === '/api/books'
    ? 'collection'
    : path === '/api/books/stats'
      ? 'stats'
      : path === '/api/books/events'
        ? 'events'
        : 'member';

describe('the client agrees with the server on the contract', () => {
  it('knows exactly the problem codes of PROBLEM_STATUS', () => {
    expect(new Set(PROBLEM_CODES).size, 'no code is listed twice').toBe(PROBLEM_CODES.length);
    expect([...PROBLEM_CODES].sort()).toEqual(Object.keys(PROBLEM_STATUS).sort());
  });

  it('pluralizes a resource name as the server does (the plural is the key of lists and the path)', () => {
    for (const word of ['book', 'category', 'day', 'box', 'bus', 'match', 'wish', 'quiz', 'Key', 'CITY']) {
      expect(pluralize(word), word).toBe(serverPlural(word));
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,20}$/), (word) => pluralize(word) === serverPlural(word)),
    );
  });

  it('keeps its own code for a non-problem answer out of the server codes', () => {
    expect(Object.keys(PROBLEM_STATUS)).not.toContain('unexpected_response');
  });

  it('knows the event types of a live stream, as the server documents them', () => {
    class Note {
      @IsString() text!: string;
    }
    const notes = defineResource({ name: 'note', model: Note, live: true });
    // biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
    const document: any = openApiDocument([notes]);
    const stream = document.paths['/notes/events'].get.responses['200'].content['text/event-stream'];
    expect([...WATCH_EVENT_TYPES].sort()).toEqual(Object.keys(stream['x-events']).sort());
  });

  it('has the action table of ACTIONS: method, collection or member, success status', () => {
    const server = Object.fromEntries(
      ACTIONS.map(({ name, method, target, status }) => [name, { method, target, status }]),
    );
    expect(CLIENT_ACTIONS).toEqual(server);
  });

  it('sends each action with the method and to the path of ACTIONS', async () => {
    const sent: string[] = [];
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      const method = init.method ?? 'GET';
      const path = new URL(url, 'http://api.test').pathname;
      sent.push(`${method} ${path}`);
      const spec = ACTIONS.find((action) => action.method === method && action.target === targetOf(path));
      if (spec?.status === 204) return new Response(null, { status: 204 });
      const record = { id: 7, name: 'Dune' };
      if (path === '/api/books/events') {
        const stream = `retry: 1000\n\nid: 1-1\nevent: created\ndata: ${JSON.stringify({ book: record })}\n\n`;
        return new Response(stream, { status: spec?.status ?? 500, headers: { 'content-type': 'text/event-stream' } });
      }
      const body =
        path === '/api/books/stats'
          ? { stats: [{ count: 1 }] }
          : path === '/api/books' && method === 'GET'
            ? { books: [record] }
            : { book: record };
      return new Response(JSON.stringify(body), {
        status: spec?.status ?? 500,
        headers: { 'content-type': 'application/json' },
      });
    };
    const books = resourceClient<ResourceType<{ name: string }, 'book'>>({ baseUrl: '/api', name: 'book', fetch });
    const calls = {
      create: () => books.create({ name: 'Dune' }),
      update: () => books.update(7, { name: 'Dune' }),
      destroy: () => books.destroy(7),
      show: () => books.show(7),
      index: () => books.index(),
      stats: () => books.stats(),
      // The first event of the stream, then closed.
      events: () =>
        new Promise((resolve, reject) => {
          const watch = books.watch({}, (event) => {
            watch.close();
            resolve(event);
          });
          watch.done.catch(reject);
        }),
    } satisfies Record<(typeof ACTIONS)[number]['name'], () => Promise<unknown>>;
    for (const action of ACTIONS) {
      sent.length = 0;
      const outcome = await calls[action.name]().then(
        () => 'answered',
        (error: unknown) => String(error),
      );
      const path = {
        collection: '/api/books',
        member: '/api/books/7',
        stats: '/api/books/stats',
        events: '/api/books/events',
      }[action.target];
      expect(sent, action.name).toEqual([`${action.method} ${path}`]);
      expect(outcome, `${action.name} reads a ${action.status} success`).toBe('answered');
    }
  });

  it('sends the bulk writes with the method and to the path of BULK_ACTIONS, and a list create as a POST', async () => {
    const sent: string[] = [];
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      const method = init.method ?? 'GET';
      sent.push(`${method} ${new URL(url, 'http://api.test').pathname}`);
      const spec = BULK_ACTIONS.find((action) => action.method === method) ?? ACTIONS[0];
      if (spec?.status === 204) return new Response(null, { status: 204 });
      return Response.json({ books: [{ id: 7, name: 'Dune' }] }, { status: spec?.status ?? 500 });
    };
    const books = resourceClient<ResourceType<{ name: string }, 'book'>>({ baseUrl: '/api', name: 'book', fetch });
    const calls: Partial<Record<(typeof BULK_ACTIONS)[number]['name'], () => Promise<unknown>>> = {
      update: () => books.updateMany([{ id: 7, name: 'Dune' }]),
      destroy: () => books.destroyMany([7]),
    };
    for (const action of BULK_ACTIONS) {
      sent.length = 0;
      const call = calls[action.name];
      if (!call) throw new Error(`the client has no bulk ${action.name}`);
      await call();
      expect(action.target).toBe('collection');
      expect(sent, action.name).toEqual([`${action.method} /api/books`]);
    }
    sent.length = 0;
    await books.createMany([{ name: 'Dune' }]);
    expect(sent).toEqual(['POST /api/books']);
  });
});
