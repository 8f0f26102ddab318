import { createApi, memoryStore } from '@resourcery/core';
import type { NeutralRequest } from '@resourcery/core/adapter';
import { type Store, StoreUnavailable } from '@resourcery/core/store';
import { bookResource } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';

const get = (path: string): NeutralRequest => ({ method: 'GET', path, basePath: '/api', rawQuery: '', headers: {} });

describe('store readiness', () => {
  it('a store that cannot start answers 503 for its own resources only, and is retried until it starts', async () => {
    let up = false;
    let attempts = 0;
    const memory = memoryStore();
    const flaky: Store = {
      collection: (schema) => memory.collection(schema),
      transaction: (work) => memory.transaction(work),
      async init() {
        attempts++;
        if (!up) throw new StoreUnavailable(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
      },
    };
    const api = createApi({
      resources: [bookResource(), bookResource({ path: 'drafts', store: flaky })],
      store: memoryStore(),
      logError: () => {},
    });

    expect((await api.handle(get('/drafts'))).status).toBe(503);
    expect((await api.handle(get('/books'))).status).toBe(200);
    expect((await api.handle(get('/drafts'))).status).toBe(503);
    up = true;
    expect((await api.handle(get('/drafts'))).status).toBe(200);
    expect((await api.handle(get('/drafts'))).status).toBe(200);
    expect(attempts).toBe(3); // once per request while down, never again once started
  });
});
