import 'reflect-metadata';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
  validate,
} from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passes, planOf, validationErrors } from './class-validation.js';

/** A custom synchronous constraint whose answers are truthy or falsy, not always booleans. */
function LooselyTrue(options?: ValidationOptions) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'looselyTrue',
      target: target.constructor,
      propertyName: property,
      options,
      validator: {
        // class-validator takes any truthy answer as a pass.
        validate: ((value: unknown) =>
          typeof value === 'string' ? value.length : value === 7 ? 'yes' : 0) as unknown as (value: unknown) => boolean,
        defaultMessage: () => '$property must be loosely true',
      },
    });
}

/** A custom asynchronous constraint. */
function EventuallyShort(options?: ValidationOptions) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'eventuallyShort',
      target: target.constructor,
      propertyName: property,
      options,
      async: true,
      validator: { validate: async (value: unknown) => typeof value === 'string' && value.length < 4 },
    });
}

class Book {
  @IsString() @Length(1, 5) name!: string;
  @IsString() @Length(1, 5) author!: string;
}

class Rich {
  @IsOptional() @IsInt() @Min(0) @Max(3000) year?: number | null;
  @IsIn(['novel', 'essay']) genre = 'novel';
  @IsOptional() @IsEmail() email?: string;
  @Matches(/^[A-Z]/) @IsString() code!: string;
  @IsBoolean() flag!: boolean;
  @IsNumber() @IsPositive() price!: number;
  @ValidateIf((object: Rich) => object.flag === true) @IsString() note?: string;
  @LooselyTrue() loose?: unknown;
  @Length(1, 3, { groups: ['strict'] }) grouped?: string;
}

class Child extends Book {
  @IsOptional() @Length(2, 3) subtitle?: string | null;
  @Length(1, 2) override name = 'ab';
}

class Defined {
  @IsDefined() @IsString() name!: string;
}

class Eventually {
  @EventuallyShort() name!: string;
}

const OPTIONS = {
  skipUndefinedProperties: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};
const FIELDS = [
  'name',
  'author',
  'year',
  'genre',
  'email',
  'code',
  'flag',
  'price',
  'note',
  'loose',
  'grouped',
  'subtitle',
];
const value = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('a@b.io', 'Abc', 'novel', 'essay', '', 'x'.repeat(7)),
  fc.integer({ min: -5, max: 3005 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(7, 0, 1.5, -1),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

describe('validationErrors', () => {
  for (const model of [Book, Rich, Child, Defined, Eventually]) {
    it(`answers exactly what class-validator's validate answers (${model.name})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...FIELDS), value), async (values) => {
          const instance = Object.assign(new model(), values);
          expect(await validationErrors(instance)).toEqual(await validate(instance, OPTIONS));
        }),
        { numRuns: 400 },
      );
    });
  }

  it('answers valid instances of plain models without calling validate, and leaves the rest to it', () => {
    const book = Object.assign(new Book(), { name: 'Dune', author: 'Frank' });
    const rich = Object.assign(new Rich(), { year: null, code: 'Abc', flag: false, price: 2, note: 5 });
    const child = Object.assign(new Child(), { name: 'Du', author: 'Frank', subtitle: null });
    for (const instance of [book, rich, child]) {
      const plan = planOf(instance.constructor as new () => object);
      expect(plan).not.toBeNull();
      expect(passes(plan ?? [], instance)).toBe(true);
    }
    // A truthy answer that is not `true` is not taken as a pass: validate decides.
    expect(passes(planOf(Rich) ?? [], Object.assign(rich, { loose: 7 }))).toBe(false);
    expect(planOf(Defined)).toBeNull();
    expect(planOf(Eventually)).toBeNull();
  });
});
