import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayUnique,
  Contains,
  IsAlpha,
  IsBoolean,
  IsByteLength,
  IsDateString,
  IsDecimal,
  IsDefined,
  IsEmail,
  IsHexColor,
  IsIn,
  IsInt,
  IsJSON,
  IsLowercase,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsStrongPassword,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinDate,
  MinLength,
  NotContains,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
  validate,
} from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inLibraryVoice, passes, planOf, validationErrors } from '../src/resource/input/class-validation.js';

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
    it(`answers what class-validator's validate answers, in the library's voice (${model.name})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...FIELDS), value), async (values) => {
          const instance = Object.assign(new model(), values);
          expect(await validationErrors(instance)).toEqual(inLibraryVoice(instance, await validate(instance, OPTIONS)));
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

/** The messages of one invalid instance, by field. */
async function messagesOf(instance: object): Promise<Record<string, string[]>> {
  const messages: Record<string, string[]> = {};
  for (const error of await validationErrors(instance))
    messages[error.property] = Object.values(error.constraints ?? {});
  return messages;
}

class Lengths {
  @Length(1, 500) between!: string;
  @Length(1, 1) exactly!: string;
  @Length(3) atLeast!: string;
  @Length(0, 1) atMost!: string;
  @MinLength(1) min!: string;
  @MaxLength(1) max!: string;
}

class Messages {
  @IsInt() intField!: number;
  @IsNumber() numberField!: number;
  @IsBoolean() booleanField!: boolean;
  @IsString() stringField!: string;
  @IsEmail() emailField!: string;
  @IsUrl() urlField!: string;
  @IsUUID() uuidField!: string;
  @IsIn(['novel', 'essay']) genreField!: string;
  @Min(1) @Max(10) ratingField!: number;
  @IsPositive() positiveField!: number;
  @Matches(/^[A-Z]/) codeField!: string;
  @IsNotEmpty() filledField!: string;
  @IsDefined() definedField!: string;
  @IsDateString() dateField!: string;
  @IsHexColor() colorField!: string;
  @Contains('x') containsField!: string;
  @NotContains('x') notContainsField!: string;
  @IsAlpha() alphaField!: string;
  @IsLowercase() lowerField!: string;
  @IsJSON() jsonField!: string;
  @IsDecimal() decimalField!: string;
  @IsByteLength(1, 2) bytesField!: string;
  @IsStrongPassword() passwordField!: string;
  @ArrayUnique() uniqueField!: string[];
  @MinDate(new Date('2020-01-01T00:00:00Z')) afterField!: Date;
  @IsString({ each: true }) @MaxLength(2, { each: true }) tagsField!: string[];
}

class Custom {
  @Length(1, 5, { message: 'needs 1 to 5 letters' }) name!: string;
  @IsInt({ message: (args) => `${args.property} wants a whole number` }) count!: number;
  @LooselyTrue() loose?: unknown;
}

describe('messages in the library voice', () => {
  it('words lengths in good English, without the field name', async () => {
    const instance = Object.assign(new Lengths(), {
      between: '',
      exactly: 'ab',
      atLeast: 'a',
      atMost: 'ab',
      min: '',
      max: 'ab',
    });
    expect(await messagesOf(instance)).toEqual({
      between: ['must be between 1 and 500 characters long'],
      exactly: ['must be exactly 1 character long'],
      atLeast: ['must be at least 3 characters long'],
      atMost: ['must be at most 1 character long'],
      min: ['must be at least 1 character long'],
      max: ['must be at most 1 character long'],
    });
  });

  it('never names the field, for every built-in decorator tried, each: true included', async () => {
    const instance = Object.assign(new Messages(), {
      intField: 1.5,
      numberField: 'x',
      booleanField: 'x',
      stringField: 1,
      emailField: 'x',
      urlField: 'x',
      uuidField: 'x',
      genreField: 'poem',
      ratingField: 0,
      positiveField: -1,
      codeField: 'a',
      filledField: '',
      definedField: null,
      dateField: 'x',
      colorField: 'x',
      containsField: 'a',
      notContainsField: 'x',
      alphaField: '1',
      lowerField: 'A',
      jsonField: '{',
      decimalField: 'x',
      bytesField: 'abc',
      passwordField: 'a',
      uniqueField: ['a', 'a'],
      afterField: new Date('2019-01-01T00:00:00Z'),
      tagsField: ['abc', 7],
    });
    const messages = await messagesOf(instance);
    expect(Object.keys(messages).sort()).toEqual(Object.keys(instance).sort());
    for (const [field, list] of Object.entries(messages)) {
      for (const message of list) {
        expect(message, field).not.toContain(field);
        expect(message, field).toMatch(/^(must|is|each value must) /);
      }
    }
    expect(messages).toMatchObject({
      intField: ['must be an integer'],
      numberField: ['must be a number'],
      booleanField: ['must be a boolean'],
      stringField: ['must be a string'],
      emailField: ['must be an email address'],
      genreField: ['must be one of: novel, essay'],
      ratingField: ['must be at least 1'],
      filledField: ['must not be empty'],
      codeField: ['must match the pattern /^[A-Z]/'],
      bytesField: ['must be between 1 and 2 bytes long'],
      containsField: ['must contain "x"'],
      jsonField: ['must be valid JSON'],
      afterField: ['must not be before 2020-01-01T00:00:00.000Z'],
      tagsField: ['each value must be at most 2 characters long', 'each value must be a string'],
    });
  });

  it("keeps the messages a decorator was given, and words a custom constraint's default the same way", async () => {
    const instance = Object.assign(new Custom(), { name: '', count: 1.5, loose: 0 });
    expect(await messagesOf(instance)).toEqual({
      name: ['needs 1 to 5 letters'],
      count: ['count wants a whole number'],
      loose: ['must be loosely true'],
    });
  });

  it('words the errors of nested models too', async () => {
    class Author {
      @Length(1, 50) name!: string;
    }
    class Novel {
      @ValidateNested() @Type(() => Author) author!: Author;
    }
    const [error] = await validationErrors(
      Object.assign(new Novel(), { author: Object.assign(new Author(), { name: '' }) }),
    );
    expect(error?.children?.[0]?.constraints).toEqual({ isLength: 'must be between 1 and 50 characters long' });
  });
});
