// The client examples of docs/client.md's "Authentication" against an API with bearerJwt, over
// real HTTP, with tokens minted by jose.
import 'reflect-metadata';
import { bearerJwt, defineResource, memoryStore, type Principal } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Book } from './book.js';
import { bookClient, renameBook, type Session } from './client-token.js';

const secret = 'docs-client-secret';
// The books of book.ts, where only editors may rename a book.
const books = defineResource({
  name: 'book',
  model: Book,
  access: { create: ['editor'], fields: { name: { update: ['editor'] } } },
});
const authenticate = bearerJwt({
  secret,
  // The program's principal type is the tracker's (docs/access.md); this API only reads `role`.
  principal: (claims) =>
    typeof claims.role === 'string'
      ? ({ sub: Number(claims.sub), role: claims.role } as unknown as Principal)
      : undefined,
});

const mint = (role: string, exp = Math.floor(Date.now() / 1000) + 60) =>
  new SignJWT({ role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('7')
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));

/** A session answering the tokens given, one per request, the last one after that. */
function session(...tokens: (string | undefined)[]) {
  let next = 0;
  return {
    token: vi.fn(async () => tokens[Math.min(next++, tokens.length - 1)]),
    signIn: vi.fn(() => undefined),
  } satisfies Session;
}

let target: HttpSuiteTarget;
let id: number;
beforeAll(async () => {
  target = await serveHttp(
    createListener({ resources: [books], store: memoryStore(), authenticate, basePath: '/api' }),
  );
  const editor = session(await mint('editor'));
  id = (await bookClient(editor, target.baseUrl).create({ name: 'Dune', author: 'Frank Herbert' })).id;
});
afterAll(() => target.close());

describe('the typed client with a token (docs/client.md, Authentication)', () => {
  it("sends the session's token, asked for before every request", async () => {
    const editor = session(await mint('editor'));
    expect(await renameBook(editor, id, 'Dune Messiah', target.baseUrl)).toBe('renamed to Dune Messiah');
    expect(editor.token).toHaveBeenCalledOnce();
    // Refreshed between two requests: the second one carries the new token.
    const refreshed = session(await mint('reader'), await mint('editor'));
    expect(await renameBook(refreshed, id, 'Dune', target.baseUrl)).toBe('refused: name');
    expect(await renameBook(refreshed, id, 'Dune', target.baseUrl)).toBe('renamed to Dune');
  });

  it('signs in again on a 401: no token, or an expired one', async () => {
    for (const signedOut of [session(undefined), session(await mint('editor', Math.floor(Date.now() / 1000) - 60))]) {
      expect(await renameBook(signedOut, id, 'Dune', target.baseUrl)).toBe('signed out');
      expect(signedOut.signIn).toHaveBeenCalledOnce();
    }
  });
});
