import { HttpError } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { bookResource } from '@resourcery/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InputRules, validateInput } from '../src/resource/input/validate-input.js';

const compiled = compiledResource(bookResource());
const WRITABLE = new Set(['name', 'author']);

/** Runs validateInput; answers the accepted values or the HttpError thrown (anything else fails). */
async function run(body: unknown, rules: InputRules): Promise<Record<string, unknown> | HttpError> {
  try {
    return await validateInput(body, rules);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/** Length as the contract and every store count it: in code points (a variation selector is one). */
function characters(text: string): number {
  return Array.from(text).length;
}

const KEYS = ['name', 'author', 'id', 'book', '__proto__', 'constructor', 'prototype', 'toString', 'year', ''];
const text = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), weight: 4 },
  fc.string({ unit: 'grapheme', minLength: 495, maxLength: 505 }),
  fc.constantFrom('', 'x'.repeat(500), 'x'.repeat(501), '😀'.repeat(500), '😀'.repeat(501)),
);
const value = fc.oneof(text, fc.jsonValue({ maxDepth: 2 }), fc.constant(null));
/** Object members, as `[key, value]` pairs, so that keys like `__proto__` stay plain data. */
const members = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string()), value), { maxLength: 6 });
/** A JSON text with these members, parsed the way the body reader parses it. */
const objectOf = (entries: [string, unknown][]) =>
  `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${JSON.stringify(member) ?? 'null'}`).join(',')}}`;
/** Bodies close to valid ones: `name` and/or `author`, maybe one more member, maybe wrapped. */
const nearlyValid = fc
  .tuple(
    fc.oneof(fc.record({ name: text, author: text }), fc.record({ name: text, author: text }, { requiredKeys: [] })),
    fc.option(fc.tuple(fc.constantFrom(...KEYS), value), { nil: undefined, freq: 2 }),
    fc.boolean(),
  )
  .map(([fields, extra, wrapped]) => {
    const object = objectOf([...Object.entries(fields), ...(extra ? [extra] : [])]);
    return wrapped ? `{"book":${object}}` : object;
  });
const anyBody = fc
  .oneof(
    fc.jsonValue({ stringUnit: 'binary' }).map((json) => JSON.stringify(json)),
    members.map(objectOf),
    members.map((entries) => `{"book":${objectOf(entries)}}`),
    nearlyValid,
  )
  .map((json) => JSON.parse(json) as unknown);

describe('validateInput on any JSON body', () => {
  for (const action of ['create', 'update'] as const) {
    const rules = compiled[action];

    it(`${action}: accepts, or refuses with a 400 or a 422 naming the offending fields; nothing else`, async () => {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => {
          const result = await run(body, rules);
          if (result instanceof HttpError) {
            expect([400, 422]).toContain(result.status);
            if (result.status === 422) {
              expect(Object.keys(result.errors ?? {}).length).toBeGreaterThan(0);
              for (const messages of Object.values(result.errors ?? {})) {
                expect(messages.length).toBeGreaterThan(0);
                for (const message of messages) expect(message).toBeTypeOf('string');
              }
            }
          }
          expect(Object.keys(Object.prototype)).toEqual([]);
        }),
        { numRuns: 2000 },
      );
    });

    it(`${action}: accepted values are writable attributes, strings of 1 to 500 characters, as sent`, async () => {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => {
          const result = await run(body, rules);
          if (result instanceof HttpError) return;
          const sent = (Object.keys(body as object)[0] === 'book' ? (body as { book: object }).book : body) as Record<
            string,
            unknown
          >;
          expect(Object.keys(sent).sort()).toEqual(Object.keys(result).sort());
          if (action === 'create') expect(Object.keys(result).sort()).toEqual(['author', 'name']);
          for (const [field, accepted] of Object.entries(result)) {
            expect(WRITABLE.has(field), field).toBe(true);
            expect(accepted).toBeTypeOf('string');
            expect(characters(accepted as string)).toBeGreaterThanOrEqual(1);
            expect(characters(accepted as string)).toBeLessThanOrEqual(500);
            expect(accepted).toBe(sent[field]);
          }
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('create: a body of two strings is accepted exactly when both have 1 to 500 characters', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, fc.boolean(), async (name, author, wrapped) => {
        const body = wrapped ? { book: { name, author } } : { name, author };
        const result = await run(body, compiled.create);
        const valid = [name, author].every(
          (field) =>
            characters(field) >= 1 && characters(field) <= 500 && field.isWellFormed() && !field.includes('\u0000'),
        );
        if (valid) expect(result).toEqual({ name, author });
        else {
          expect(result).toBeInstanceOf(HttpError);
          expect((result as HttpError).status).toBe(422);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('strings every store can hold', () => {
  it('refuses NUL characters and lone surrogates with a 422 naming the field', async () => {
    for (const name of ['a\u0000b', 'x\ud800', '\udc00']) {
      const error = await validateInput({ name, author: 'A' }, compiled.create).catch((caught) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(422);
      expect(error.errors).toEqual({ name: ['must be well-formed Unicode text without NUL characters'] });
    }
  });
});
