import { memoryStore, type StoreProvider } from '@resourcery/core';

/** Picks the store named by `DATABASE_URL`. */
export function storeFromUrl(url: string): StoreProvider {
  if (url === 'memory:' || url === 'memory') return memoryStore();
  throw new Error(`DATABASE_URL: unsupported store "${url}" (supported: memory:)`);
}
