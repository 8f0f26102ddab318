import 'reflect-metadata';
import { type ActionContext, type AroundHook, createApi, defineResource, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { IsString, Length } from 'class-validator';
import { describe, expect, it } from 'vitest';

// An around hook lets the action run by calling next() and resolves to what next() resolved to:
// forgetting next() is a type error (the repository's typecheck holds the expected error below
// to it), and at run time a 500 naming the hook, never an empty 200.

class Note {
  @IsString() @Length(1, 100) text!: string;
}

const timed: AroundHook<ActionContext<Note>> = async (ctx, next) => {
  const done = await next();
  ctx.headers['X-Timed'] = 'yes';
  return done;
};

// @ts-expect-error an around hook that never calls next() does not resolve to Done
const forgetful: AroundHook<ActionContext<Note>> = async (ctx) => {
  ctx.headers['X-Forgot'] = 'yes';
};

const cached: AroundHook<ActionContext<Note>> = async (ctx) => ctx.respond({ note: { id: 1, text: 'cached' } });

function api(around: AroundHook<ActionContext<Note>>) {
  const notes = defineResource({ name: 'note', model: Note, hooks: { around: { all: around } } });
  return createApi({ resources: [notes], store: memoryStore(), logError: () => {} });
}

describe('around hooks', () => {
  it('run the action through next() and may change the answer after it', async () => {
    const reply = await callApi(api(timed), { method: 'POST', path: '/notes', body: { text: 'x' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['X-Timed']).toBe('yes');
  });

  it('may answer without the action through ctx.respond()', async () => {
    const reply = await callApi(api(cached), { method: 'GET', path: '/notes/1' });
    expect(reply.body).toEqual({ note: { id: 1, text: 'cached' } });
  });

  it('that forget next() answer 500, never an empty 200', async () => {
    const reply = await callApi(api(forgetful), { method: 'GET', path: '/notes' });
    expect(reply.status).toBe(500);
  });
});
