// A body read by readJsonBody and validated: decimals and json values are judged on the number
// texts the client wrote, whatever surrounds them (strings full of quotes and look-alike members,
// long keys, a wrapper), and whatever JSON.parse made of them.
import 'reflect-metadata';
import { Readable } from 'node:stream';
import { HttpError } from '@resourcery/core';
import { type NeutralRequest } from '@resourcery/core/adapter';
import { IsDecimal, IsObject, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../src/http/read-body.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';
import { emptyStrings } from '../src/resource/input/sent-numbers.js';
import { validateInput } from '../src/resource/input/validate-input.js';
import { isExactDouble } from '../src/schema/number-text.js';
import { canonicalDecimalNumber } from '../src/schema/values.js';

const LONG = `p${'r'.repeat(140)}`;

class Item {
  @IsOptional() @IsString() title?: string | null;
  @IsOptional() @IsDecimal({ decimal_digits: '0,2' }) price?: string | null;
  @IsOptional() @IsObject() meta?: Record<string, unknown> | null;
}
// A decimal named with more than 128 characters: its key is not in the short text the numbers are read from.
IsOptional()(Item.prototype, LONG);
IsDecimal({ decimal_digits: '0,2' })(Item.prototype, LONG);

const rules = compiledResource(defineResource({ name: 'item', model: Item })).create;

function request(text: string): NeutralRequest {
  const bytes = Buffer.from(text);
  return {
    method: 'POST',
    path: '/items',
    basePath: '',
    rawQuery: '',
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
    body: Readable.from([bytes], { objectMode: false }),
  };
}

/** The values stored for a body text, or the field errors of its 422. */
async function validated(text: string): Promise<{ values: Record<string, unknown> } | { errors: unknown }> {
  try {
    return { values: await validateInput(await readJsonBody(request(text), 1024 * 1024), rules) };
  } catch (error) {
    if (error instanceof HttpError && error.status === 422) return { errors: error.errors };
    throw error;
  }
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const numberText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.stringMatching(/^[1-9]$/), digits(0, 22)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 22), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E-', 'e+'), fc.integer({ min: 0, max: 400 })), { nil: undefined }),
  )
  .map(
    ([sign, whole, fraction, exponent]) =>
      `${sign}${whole}${fraction ? `.${fraction}` : ''}${exponent?.join('') ?? ''}`,
  );
/** Strings that look like members, brackets and numbers, with escapes; sometimes long. */
const decoy = fc
  .oneof(
    fc.string({ unit: fc.constantFrom('"', '\\', ':', ',', '{', '}', '[', ']', '1', '.', 'e', 'é', '\n', 'a') }),
    // Long ones make the body long enough (4 KB) for its strings to be emptied before the second reading.
    fc.constantFrom('"price": 1.001', '{"meta": {"x": 1e400}}', 'x'.repeat(300), '"price": 1e400, 9.99 '.repeat(250)),
  )
  .map((text) => JSON.stringify(text));
const key = fc
  .oneof(fc.constantFrom('a', 'price', 'meta', 'k'.repeat(200), 'j'.repeat(200)), fc.string())
  .map((k) => JSON.stringify(k));

/** A JSON value as text, and the number texts in it. */
interface Written {
  readonly text: string;
  readonly numbers: readonly string[];
}
const json: fc.Arbitrary<Written> = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    numberText.map((text) => ({ text, numbers: [text] })),
    decoy.map((text) => ({ text, numbers: [] })),
    fc.constantFrom('true', 'null').map((text) => ({ text, numbers: [] })),
    fc.uniqueArray(fc.tuple(key, tie('value')), { maxLength: 4, selector: ([k]) => k }).map((entries) => ({
      text: `{${entries.map(([k, v]) => `${k} : ${v.text}`).join(',')}}`,
      numbers: entries.flatMap(([, v]) => v.numbers),
    })),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => ({
      text: `[${items.map((item) => item.text).join(', ')}]`,
      numbers: items.flatMap((item) => item.numbers),
    })),
  ),
})).value;
const metaObject = fc.uniqueArray(fc.tuple(key, json), { maxLength: 4, selector: ([k]) => k }).map((entries) => ({
  text: `{${entries.map(([k, v]) => `${k}:${v.text}`).join(',')}}`,
  numbers: entries.flatMap(([, v]) => v.numbers),
}));

/** What emptyStrings must make of a parsed value: strings emptied, keys over 128 units (as written) emptied. */
function emptied(value: unknown): unknown {
  if (typeof value === 'string') return '';
  if (Array.isArray(value)) return value.map(emptied);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const units = JSON.stringify(key).slice(1, -1).replace(/\\./g, 'x').length;
    Object.defineProperty(out, units > 128 ? '' : key, {
      value: emptied(member),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return out;
}

describe('emptyStrings: the text lossless-json reads when a body is long', () => {
  it('keeps every number, literal and short key where it was, and empties the rest', () => {
    // Keys on both sides of 128 units, as written: `\n` is two characters and one unit, `\u0001` five.
    const boundary = fc.constantFrom(
      'k'.repeat(128),
      'k'.repeat(129),
      '\n'.repeat(128),
      '\n'.repeat(129),
      '\u0001'.repeat(26),
    );
    const text = fc.oneof(
      boundary,
      fc.string({ maxLength: 140 }),
      fc.string({ unit: fc.constantFrom('"', '\\', ':', '\n', 'é', 'a'), maxLength: 140 }),
    );
    const value = fc.jsonValue({ maxDepth: 3 });
    const keyed = fc.dictionary(text, fc.oneof(value, text), { maxKeys: 6 });
    fc.assert(
      fc.property(
        fc.oneof(keyed, fc.array(keyed, { maxLength: 3 }), value),
        fc.constantFrom(undefined, 1, '\t'),
        (json, space) => {
          const written = JSON.stringify(json, null, space);
          expect(JSON.parse(emptyStrings(written))).toEqual(emptied(JSON.parse(written)));
        },
      ),
    );
    expect(emptyStrings('{"a" :"x\\"y", "b":[1.5e3, "\\"", {"c" : -0}]}')).toBe(
      '{"a" :"", "b":[1.5e3, "", {"c" : -0}]}',
    );
  });
});

describe('a body judged on the number texts it holds', () => {
  it('a decimal is its text: the canonical value, or the 422 the same text gets', async () => {
    await fc.assert(
      fc.asyncProperty(numberText, decoy, fc.boolean(), fc.boolean(), async (price, title, wrapped, first) => {
        const members = [`"title": ${title}`, `"price": ${price}`];
        const object = `{${(first ? members : members.reverse()).join(' ,\n')}}`;
        const expected = canonicalDecimalNumber(price, 2, 15);
        const result = await validated(wrapped ? `{"item": ${object}}` : object);
        if (expected.value !== undefined)
          expect(result, price).toEqual({ values: { title: JSON.parse(title), price: expected.value } });
        else expect(result, price).toHaveProperty('errors.price');
      }),
    );
  });

  it('a json value is refused exactly when a number in it is one a double does not keep', async () => {
    await fc.assert(
      fc.asyncProperty(metaObject, decoy, async (meta, title) => {
        const result = await validated(`{"title": ${title}, "meta": ${meta.text}}`);
        const inexact = meta.numbers.filter((text) => !isExactDouble(text));
        if (inexact.length === 0)
          expect(result).toEqual({ values: { title: JSON.parse(title), meta: JSON.parse(meta.text) } });
        else {
          // One message naming one of them (the first met, in the order the object's keys iterate).
          const messages = (result as { errors: { meta: string[] } }).errors.meta;
          expect(messages).toHaveLength(1);
          expect(
            inexact.some((text) => messages[0]?.includes(text.slice(0, 40))),
            messages[0],
          ).toBe(true);
        }
      }),
    );
  });

  it('a key given twice: the decimal JSON.parse keeps is judged; a json value is judged on all its text', async () => {
    expect(await validated('{"price": 1.001, "price": 2}')).toEqual({ values: { price: '2.00' } });
    expect(await validated('{"price": 2, "price": 19.999999999999999}')).toHaveProperty('errors.price');
    expect(await validated('{"meta": {"a": 1e400, "a": 1}}')).toHaveProperty('errors.meta');
    const long = `{"meta": {"${'k'.repeat(200)}": 1e400, "${'j'.repeat(200)}": 1}}`;
    expect(await validated(long)).toHaveProperty('errors.meta');
    expect(await validated(`{"${LONG}": 19.999999999999999}`)).toHaveProperty([`errors`, LONG]);
    expect(await validated(`{"${LONG}": 1.5e1}`)).toEqual({ values: { [LONG]: '15.00' } });
  });
});
