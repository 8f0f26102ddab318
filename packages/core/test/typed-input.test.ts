// Bodies with the richer types: each value is stored in its canonical form, and each wrong one
// gets a message that says what the attribute takes, in the library's voice.
import 'reflect-metadata';
import { IsDecimal, IsInt, IsISO8601, IsObject, IsOptional, IsString, IsUUID } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors/http-error.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';
import { validateInput } from '../src/resource/input/validate-input.js';

class Item {
  @IsOptional() @IsISO8601() at?: string | null;
  @IsOptional() @IsDecimal({ decimal_digits: '0,2' }) price?: string | null;
  @IsOptional() @IsUUID() ref?: string | null;
  @IsOptional() @IsObject() meta?: Record<string, unknown> | null;
  @IsOptional() @IsString() born?: string | null;
  @IsInt() stock!: number;
}

const compiled = compiledResource(
  defineResource({ name: 'item', model: Item, types: { born: 'date' }, timestamps: true, defaults: { stock: 0 } }),
);

async function errorsOf(body: unknown): Promise<Record<string, string[]>> {
  const error = await validateInput(body, compiled.create).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HttpError);
  return (error as HttpError).errors as Record<string, string[]>;
}

describe('typed bodies', () => {
  it('stores canonical values: UTC date-times, padded decimals, lowercase uuids, objects as sent', async () => {
    const values = await validateInput(
      {
        at: '2024-05-01T14:00:00.5+02:00',
        price: 12.5,
        ref: '3F2504E0-4F89-11D3-9A0C-0305E82C3301',
        meta: { b: 1, a: [true, null] },
        born: '1999-12-31',
      },
      compiled.create,
    );
    expect(values).toEqual({
      at: '2024-05-01T12:00:00.500Z',
      price: '12.50',
      ref: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      meta: { b: 1, a: [true, null] },
      born: '1999-12-31',
    });
    expect(Object.keys(values.meta as object)).toEqual(['b', 'a']);
  });

  it('says what each attribute takes', async () => {
    expect(
      await errorsOf({
        at: '2024-05-01 14:00',
        price: '1.234',
        ref: 'not-a-uuid',
        meta: [1],
        born: '2023-02-29',
      }),
    ).toEqual({
      at: ['must be an RFC 3339 date-time'],
      price: ['must have at most 2 decimal places'],
      ref: ['must be a uuid'],
      meta: ['must be a JSON object'],
      born: ['must be a date (YYYY-MM-DD)'],
    });
    expect(await errorsOf({ price: '12345678901234' })).toEqual({
      price: ['must have at most 13 digits before the decimal point'],
    });
    expect(await errorsOf({ meta: { '\uD800': 1 } })).toEqual({
      meta: ['must not contain malformed Unicode or NUL characters'],
    });
  });

  it('refuses the timestamps as read-only, and does not require an attribute with a default', async () => {
    expect(await errorsOf({ createdAt: '2024-05-01T00:00:00Z', updatedAt: null })).toEqual({
      createdAt: ['is read-only'],
      updatedAt: ['is read-only'],
    });
    await expect(validateInput({}, compiled.create)).resolves.toEqual({});
  });
});
