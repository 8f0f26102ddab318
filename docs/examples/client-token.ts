// The typed client of an API that authenticates (docs/client.md, "Authentication"): the signed-in
// user's bearer token on every request, and what the app does with a 401 and a 403.
import { ResourceError, resourceClient } from '@resourcery/client';
import type { books } from './book.js';

/** The signed-in user's session: a token, refreshed when it expires (`undefined` when signed out). */
export interface Session {
  token(): Promise<string | undefined>;
  signIn(): void;
}

export function bookClient(session: Session, baseUrl = '/api') {
  // Called before every request: a refreshed token is used as soon as the session has it.
  return resourceClient<typeof books>({ baseUrl, name: 'book', token: () => session.token() });
}

/** Renames a book, or says why the server refused. */
export async function renameBook(session: Session, id: number, name: string, baseUrl = '/api'): Promise<string> {
  try {
    const book = await bookClient(session, baseUrl).update(id, { name });
    return `renamed to ${book.name}`;
  } catch (error) {
    if (!(error instanceof ResourceError)) throw error;
    if (error.status === 401) {
      session.signIn(); // no token, or one that expired or was revoked
      return 'signed out';
    }
    // A 403's `errors` names each field the caller may not write: { name: ['may not be changed by you'] }.
    if (error.status === 403) return `refused: ${Object.keys(error.errors).join(', ') || 'not allowed'}`;
    throw error;
  }
}
