import 'reflect-metadata';
import {
  type ActionContext,
  type AroundHook,
  ConflictError,
  defineResource,
  HttpError,
  type ProblemCode,
} from '@resourcery/core';
import { IsString } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';

// Checked by the compiler only (Vitest's typecheck and `tsc`): every `@ts-expect-error` below is
// a mistake the core's types must refuse, so this file stops compiling if they accept it.

class Note {
  @IsString() text!: string;
}

describe('HttpError', () => {
  it('takes the status of a code of the library, and any status for a code of your own', () => {
    new HttpError(409, 'conflict', { detail: 'taken' });
    new HttpError(429, 'too_many_requests');
    new HttpError(410, 'gone'); // a code of your own
    // @ts-expect-error a conflict is a 409, never a 404
    new HttpError(404, 'conflict');
    // @ts-expect-error not_found is a 404
    new HttpError(400, 'not_found', { detail: 'no such book' });
    const code = 'forbidden' as ProblemCode;
    new HttpError(403, code); // a code known only as a ProblemCode: one of the library's statuses
    // @ts-expect-error 418 is the status of no code of the library
    new HttpError(418, code);
  });

  it('is still a class: instanceof narrows, and subclasses are HttpErrors', () => {
    const error: unknown = new ConflictError();
    if (error instanceof HttpError) expectTypeOf(error.status).toEqualTypeOf<number>();
    expectTypeOf(new ConflictError()).toMatchTypeOf<HttpError>();
  });
});

describe('around hooks', () => {
  it('must resolve to what next() or ctx.respond() gave', () => {
    const timed: AroundHook<ActionContext<Note>> = async (ctx, next) => {
      const done = await next();
      ctx.headers['X-Timed'] = 'yes';
      return done;
    };
    const cached: AroundHook<ActionContext<Note>> = async (ctx) => ctx.respond({ note: { text: 'cached' } });
    // @ts-expect-error an around hook that never calls next() resolves to nothing, not to Done
    const forgetful: AroundHook<ActionContext<Note>> = async (ctx) => {
      ctx.headers['X-Forgot'] = 'yes';
    };
    // @ts-expect-error calling next() without returning what it gave is forgetting it as well
    const dropped: AroundHook<ActionContext<Note>> = async (_ctx, next) => {
      await next();
    };
    defineResource({
      name: 'note',
      model: Note,
      hooks: {
        around: {
          create: timed,
          show: cached,
          // @ts-expect-error declared in place, the hook is checked the same way
          index: async (ctx) => {
            ctx.headers['X-Forgot'] = 'yes';
          },
        },
      },
    });
    expectTypeOf([forgetful, dropped]).toBeArray();
  });
});
