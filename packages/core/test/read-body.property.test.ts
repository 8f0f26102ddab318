import { Readable } from 'node:stream';
import { HttpError } from '@resourcery/core';
import { type NeutralRequest } from '@resourcery/core/adapter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../src/http/read-body.js';

/** Nesting depth of a parsed JSON value: what the body reader must measure on the text. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

function request(text: string, contentType = 'application/json'): NeutralRequest {
  const bytes = Buffer.from(text);
  return {
    method: 'POST',
    path: '/books',
    basePath: '',
    rawQuery: '',
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
    body: Readable.from([bytes], { objectMode: false }),
  };
}

async function read(text: string, maxDepth: number, contentType?: string): Promise<unknown> {
  try {
    return await readJsonBody(request(text, contentType), 1024 * 1024, maxDepth);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/** Strings full of brackets and quotes, which must not count as nesting. */
const tricky = fc.stringMatching(/^[[\]{}"\\a]{0,12}$/);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(tricky, fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('readJsonBody', () => {
  it('refuses exactly the bodies nested deeper than the limit, whatever their strings hold', async () => {
    await fc.assert(
      fc.asyncProperty(json, fc.integer({ min: 0, max: 6 }), async (value, maxDepth) => {
        const outcome = await read(JSON.stringify(value), maxDepth);
        if (depthOf(value) > maxDepth) {
          expect(outcome).toBeInstanceOf(HttpError);
          expect((outcome as HttpError).status).toBe(400);
          expect((outcome as HttpError).message).toMatch(/deeper than/);
        } else {
          expect(outcome).toEqual(value);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('judges a content type the same way on every request (the verdicts are cached)', async () => {
    const verdict = (outcome: unknown) => (outcome instanceof HttpError ? outcome.status : 'parsed');
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (type) => {
        expect(verdict(await read('{"a":1}', 32, type))).toBe(verdict(await read('{"a":1}', 32, type)));
      }),
      { numRuns: 300 },
    );
    const expected: [string, number | 'parsed'][] = [
      ['application/json', 'parsed'],
      ['Application/JSON; charset=UTF-8', 'parsed'],
      ['application/merge-patch+json', 'parsed'],
      ['application/json; charset="utf8"', 'parsed'],
      ['application/json; charset=latin1', 415],
      ['text/json', 415],
      ['application/jsonx', 415],
      ['', 415],
    ];
    for (const [type, outcome] of expected) {
      for (let i = 0; i < 2; i++) expect([type, verdict(await read('{"a":1}', 32, type))]).toEqual([type, outcome]);
    }
  });
});
