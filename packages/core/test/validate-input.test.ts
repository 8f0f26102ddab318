import 'reflect-metadata';
import { IsString, Length, registerDecorator } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors/http-error.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';
import { validateInput } from '../src/resource/input/validate-input.js';

/** A constraint that counts how often class-validator (or its fast path) calls it. */
const calls = { count: 0 };
function Counted() {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'counted',
      target: target.constructor,
      propertyName: property,
      validator: {
        validate: () => {
          calls.count++;
          return true;
        },
      },
    });
}

class Book {
  @IsString() @Length(1, 500) @Counted() name!: string;
  @IsString() @Length(1, 500) author!: string;
}

const rules = compiledResource(defineResource({ name: 'book', model: Book })).create;

async function refusal(body: unknown): Promise<HttpError> {
  const error = await validateInput(body, rules).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('validateInput on hostile bodies', () => {
  it('lists every attribute at fault and the first 20 unknown names, counting the others', async () => {
    const body: Record<string, unknown> = { __proto__: null, constructor: 1 };
    for (let i = 0; i < 1000; i++) body[`k${i}`] = i;
    // Sent after the cap is passed: still checked, by name.
    Object.assign(body, { author: 7, id: 3 });
    const error = await refusal(body);
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(
      ['author', 'constructor', 'id', 'name', ...Array.from({ length: 19 }, (_, i) => `k${i}`)].sort(),
    );
    expect(error.errors?.author).toEqual(['must be a string']);
    expect(error.errors?.id).toEqual(['is read-only']);
    expect(error.detail).toMatch(/it has 1001 unknown fields, of which errors lists the first 20$/);
  });

  it('runs no decorator of the model once the unknown names are past the cap', async () => {
    const body: Record<string, unknown> = { name: 'Dune', author: 'Herbert' };
    calls.count = 0;
    for (let i = 0; i < 20; i++) body[`k${i}`] = i;
    await refusal(body);
    expect(calls.count).toBe(1);
    body.k20 = 20;
    calls.count = 0;
    await refusal(body);
    expect(calls.count).toBe(0);
  });

  it('names an unknown field of any length in at most about 100 characters', async () => {
    const error = await refusal({ name: 'Dune', author: 'Herbert', ['x'.repeat(100_000)]: 1 });
    const [name] = Object.keys(error.errors ?? {});
    expect(name?.length).toBeLessThan(150);
    expect(error.detail.length).toBeLessThan(250);
  });

  it('counts a length in code points, as every store does: variation selectors too', async () => {
    await expect(validateInput({ name: '😀\uFE0F'.repeat(250), author: 'A' }, rules)).resolves.toBeDefined();
    const error = await refusal({ name: '😀\uFE0F'.repeat(251), author: 'A' });
    expect(error.errors).toEqual({ name: ['must be at most 500 characters long'] });
    // A plain overlong string gets the message of its decorator, in the library's voice.
    expect((await refusal({ name: 'x'.repeat(501), author: 'A' })).errors?.name).toEqual([
      'must be between 1 and 500 characters long',
    ]);
  });
});
