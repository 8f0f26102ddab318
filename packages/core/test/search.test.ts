import 'reflect-metadata';
import { createApi, defineResource, memoryStore, type Principal } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/build-document.js';

// `q=` (docs/search.md) as the core serves it on the memory store: the declaration is checked
// at start-up, a field hidden from the caller is left out of their search (so that `q` cannot
// read it one word at a time), `q` is 400 where no search is declared or when it has no word,
// and the OpenAPI document lists `q` exactly where the server takes it.

class Ticket {
  @IsString() title!: string;
  @IsOptional() @IsString() secret?: string | null;
  @IsInt() rank!: number;
}

const tickets = defineResource({
  name: 'ticket',
  model: Ticket,
  search: ['title', 'secret'],
  access: { fields: { secret: { read: ['admin'] } } },
});
const plain = defineResource({ name: 'plain', model: Ticket });

function api() {
  return createApi({
    resources: [tickets, plain],
    store: memoryStore(),
    authenticate: (request) => {
      const role = request.headers['x-role'];
      return role ? ({ sub: 1, role } as Principal) : undefined;
    },
  });
}

type Listed = { tickets: { id: number; title: string }[] };

describe('q= search in the core', () => {
  it('refuses a declaration that names a field that is not a string, or none', () => {
    expect(() => defineResource({ name: 'bad', model: Ticket, search: ['rank'] })).toThrow(
      /search names "rank", which is not a string field \(it holds integer values\): only string fields can be searched/,
    );
    expect(() => defineResource({ name: 'bad', model: Ticket, search: ['nope' as 'title'] })).toThrow(
      /search names "nope", which is not a field/,
    );
    expect(() => defineResource({ name: 'bad', model: Ticket, search: [] })).toThrow(/non-empty list/);
  });

  it('leaves a field hidden from the caller out of their search', async () => {
    const served = api();
    const admin = { 'x-role': 'admin' };
    const body = { title: 'Public words', secret: 'password hunter2', rank: 1 };
    expect((await callApi(served, { method: 'POST', path: '/tickets', headers: admin, body })).status).toBe(200);
    const search = async (q: string, role: string) => {
      const reply = await callApi(served, { method: 'GET', path: `/tickets?q=${q}`, headers: { 'x-role': role } });
      expect(reply.status).toBe(200);
      return (reply.body as Listed).tickets.map((ticket) => ticket.title);
    };
    expect(await search('hunter', 'admin')).toEqual(['Public words']);
    expect(await search('public hunter', 'admin')).toEqual(['Public words']);
    expect(await search('hunter', 'member')).toEqual([]);
    expect(await search('pass', 'member')).toEqual([]);
    expect(await search('public', 'member')).toEqual(['Public words']);
  });

  it('is 400 naming q without a word, with too many words, with a word too long, or where no search is declared', async () => {
    const served = api();
    const headers = { 'x-role': 'admin' };
    const long = 'x'.repeat(101);
    const many = Array.from({ length: 21 }, (_, n) => `w${n}`).join('+');
    for (const path of ['/tickets?q=', '/tickets?q=%20_.', `/tickets?q=${long}`, `/tickets?q=${many}`, '/plains?q=x']) {
      const reply = await callApi(served, { method: 'GET', path, headers });
      expect(reply.status, path).toBe(400);
      expect((reply.body as { detail: string }).detail, path).toMatch(/^q\b/);
    }
    const twice = await callApi(served, { method: 'GET', path: '/tickets?q=a&q=b', headers });
    expect(twice.status).toBe(400);
    expect((await callApi(served, { method: 'GET', path: `/tickets?q=${'x'.repeat(100)}`, headers })).status).toBe(200);
  });

  it('is described in the OpenAPI document where the server takes it', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
    const document: any = openApiDocument([tickets, plain]);
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const names = (path: string) => document.paths[path].get.parameters.map((parameter: any) => parameter.name);
    expect(names('/tickets')).toContain('q');
    expect(names('/plains')).not.toContain('q');
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const q = document.paths['/tickets'].get.parameters.find((parameter: any) => parameter.name === 'q');
    expect(q.schema).toMatchObject({ type: 'string', minLength: 1 });
    expect(q.description).toContain('`title` or `secret`');
  });
});
