import { connect } from 'node:net';
import { memoryStore } from '@resourcery/core';
import { type Collection, ConstraintViolation, type Store, StoreUnavailable } from '@resourcery/core/store';
import { bookResource, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, afterEach, beforeAll, expect, it, type MockInstance, vi } from 'vitest';
import { createListener } from '../src/index.js';

// What the default logger (`console.error`) writes: a server fault with its stack, anything the
// client caused (a disconnect, a constraint the database enforced) in one line at most.
let failure: 'none' | 'unique' | 'down' | 'bug' = 'none';

/** The memory store, whose create fails on demand the way a database driver's does. */
function faultyStore(): Store {
  const provider = memoryStore();
  return {
    transaction: (work) => provider.transaction(work),
    secret: (name) => provider.secret(name),
    collection(schema) {
      const inner = provider.collection(schema);
      return Object.assign(Object.create(inner) as Collection, {
        async create(values: Record<string, never>) {
          const driver = new Error('duplicate key value violates unique constraint "books_name_key"');
          if (failure === 'unique') throw new ConstraintViolation('unique', 'name', driver);
          if (failure === 'down') throw new StoreUnavailable(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
          if (failure === 'bug') throw new TypeError('Cannot read properties of undefined');
          return inner.create(values);
        },
      });
    },
  };
}

let target: HttpSuiteTarget;
let logged: MockInstance<typeof console.error>;
/** Called by a before hook of create: the body is read next. */
let reading: (() => void) | undefined;
beforeAll(async () => {
  const hooks = { before: { create: () => reading?.() } };
  target = await serveHttp(
    createListener({ resources: [bookResource()], store: faultyStore(), basePath: '/api', hooks }),
  );
});
afterAll(() => target.close());
afterEach(() => {
  failure = 'none';
  logged.mockRestore();
});

function spyOnConsole(): void {
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
}

/** Every call of `console.error` as the text it writes, and whether it wrote an error object (a stack). */
function lines(): { text: string; withError: boolean }[] {
  return logged.mock.calls.map((args) => ({
    text: args.map(String).join(' '),
    withError: args.some((arg) => arg instanceof Error),
  }));
}

const createDune = () =>
  fetch(`${target.baseUrl}/books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
  });

it('a client that disconnects in the middle of its body is one log line, not a failure with a stack', async () => {
  spyOnConsole();
  const { port } = new URL(target.baseUrl);
  for (let i = 0; i < 3; i++) {
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      'POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
    );
    // The server is reading the body when the client goes away.
    await read;
    socket.destroy();
  }
  await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(3));
  for (const { text, withError } of lines()) {
    expect(withError, text).toBe(false);
    expect(text).not.toMatch(/\n|\bat \S+ \(|failed:/);
    expect(text).toMatch(/^\[resourcery\] POST \/books: 400 /);
  }
  expect((await createDune()).status, 'the server goes on serving').toBe(200);
});

it('a constraint the store enforced is one log line naming it, not a stack trace', async () => {
  spyOnConsole();
  failure = 'unique';
  const reply = await createDune();
  expect(reply.status).toBe(422);
  expect(lines()).toHaveLength(1);
  const [{ text, withError } = { text: '', withError: true }] = lines();
  expect(withError, text).toBe(false);
  expect(text).not.toMatch(/\n/);
  expect(text).toMatch(/^\[resourcery\] POST \/books: 422 validation_failed\b.*books_name_key/);
});

it('a server fault (500, 503) is still logged with its stack', async () => {
  for (const [mode, status] of [
    ['bug', 500],
    ['down', 503],
  ] as const) {
    spyOnConsole();
    failure = mode;
    expect((await createDune()).status).toBe(status);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]?.withError, mode).toBe(true);
    logged.mockRestore();
  }
});
