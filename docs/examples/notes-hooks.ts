// Hooks of one resource: an audit header after create, the whole action in a transaction, a
// quota checked before anything is read, and an error hook turning a domain error into a 429.
import {
  type ActionContext,
  defineResource,
  type ErrorHook,
  type Hook,
  HttpError,
  type IndexContext,
} from '@resourcery/core';
import { IsString, Length } from 'class-validator';

export class Note {
  @IsString() @Length(1, 1000) text!: string;
}

/** A domain error thrown deep inside a step; the error hook decides what clients see. */
export class QuotaExceeded extends Error {}

/** Notes each client may create per process lifetime (a stand-in for a real rate limiter). */
export const quota = { left: 3 };

const checkQuota: Hook<ActionContext<Note>> = () => {
  if (quota.left <= 0) throw new QuotaExceeded('no notes left');
  quota.left--;
};

const quotaAsProblem: ErrorHook<ActionContext<Note>> = (error) => {
  if (error instanceof QuotaExceeded) throw new HttpError(429, 'too_many_requests', { detail: 'Note quota used up' });
};

const countHeader: Hook<IndexContext<Note>> = (ctx) => {
  ctx.headers['X-Page-Size'] = String(ctx.records?.length ?? 0);
};

export const notes = defineResource({
  name: 'note',
  model: Note,
  hooks: {
    before: { create: checkQuota },
    after: {
      create: (ctx) => {
        ctx.headers['X-Audit'] = `created ${ctx.record?.id}`;
      },
      index: countHeader,
    },
    // The action runs in a store transaction: if anything after the write throws, it is undone.
    around: { create: (ctx, next) => ctx.transaction(next) },
    error: quotaAsProblem,
  },
});
