import {
  IsBoolean,
  IsDecimal,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { inferAttributes } from '../src/schema/infer-attributes.js';

describe('inferAttributes', () => {
  it('reads types, nullability and lengths from class-validator decorators alone', () => {
    // Fields declared with `declare`-free plain assignment in a factory, so no design:type metadata exists.
    class Model {}
    const decorate = (decorators: PropertyDecorator[], name: string) => {
      for (const decorator of decorators) decorator(Model.prototype, name);
    };
    decorate([IsUUID()], 'ref');
    decorate([IsISO8601()], 'at');
    decorate([IsEmail(), MaxLength(80)], 'email');
    decorate([Length(1, 20)], 'code');
    decorate([IsInt(), IsOptional()], 'year');
    decorate([IsNumber()], 'price');
    decorate([IsBoolean()], 'available');
    const attributes = Object.fromEntries(inferAttributes(Model).map((a) => [a.name, a]));
    expect(attributes).toEqual({
      id: { name: 'id', type: 'integer', nullable: false },
      ref: { name: 'ref', type: 'uuid', nullable: false },
      at: { name: 'at', type: 'date-time', nullable: false },
      email: { name: 'email', type: 'string', nullable: false, maxLength: 80 },
      code: { name: 'code', type: 'string', nullable: false, maxLength: 20 },
      year: { name: 'year', type: 'integer', nullable: true },
      price: { name: 'price', type: 'number', nullable: false },
      available: { name: 'available', type: 'boolean', nullable: false },
    });
  });

  it('refuses a field whose type cannot be told, naming it', () => {
    class Model {}
    IsOptional()(Model.prototype, 'mystery');
    expect(() => inferAttributes(Model)).toThrow(/Model\.mystery/);
    expect(inferAttributes(Model, { mystery: 'number' })[1]).toEqual({
      name: 'mystery',
      type: 'number',
      nullable: true,
    });
  });
});

describe('inferAttributes from choices', () => {
  it('takes the type shared by the values of @IsIn and @IsEnum', () => {
    enum Level {
      Low = 1,
      High = 2,
    }
    enum Color {
      Red = 'red',
      Blue = 'blue',
    }
    class Model {}
    IsIn(['draft', 'published'])(Model.prototype, 'status');
    IsIn([1, 2, 3])(Model.prototype, 'stars');
    IsEnum(Level)(Model.prototype, 'level');
    IsEnum(Color)(Model.prototype, 'color');
    const types = Object.fromEntries(inferAttributes(Model).map((a) => [a.name, a.type]));
    expect(types).toEqual({ id: 'integer', status: 'string', stars: 'integer', level: 'integer', color: 'string' });
    class Mixed {}
    IsIn(['a', 1])(Mixed.prototype, 'odd');
    expect(() => inferAttributes(Mixed)).toThrow(/Mixed\.odd/);
  });
});

describe('inferAttributes for the richer types', () => {
  it('reads decimals with their places, json objects, uuid ids and declared dates', () => {
    class Model {}
    IsUUID()(Model.prototype, 'id');
    IsDecimal({ decimal_digits: '0,2' })(Model.prototype, 'price');
    IsDecimal({ decimal_digits: '3' })(Model.prototype, 'rate');
    IsObject()(Model.prototype, 'meta');
    IsString()(Model.prototype, 'born');
    const attributes = inferAttributes(Model, { born: 'date', rate: { type: 'decimal', scale: 3, precision: 9 } });
    expect(attributes).toEqual([
      { name: 'id', type: 'uuid', nullable: false },
      { name: 'price', type: 'decimal', nullable: false, scale: 2, precision: 15 },
      { name: 'rate', type: 'decimal', nullable: false, scale: 3, precision: 9 },
      { name: 'meta', type: 'json', nullable: false },
      { name: 'born', type: 'date', nullable: false },
    ]);
  });

  it('refuses a decimal without places, or too many digits for every store to hold exactly', () => {
    class Loose {}
    IsDecimal()(Loose.prototype, 'price');
    expect(() => inferAttributes(Loose)).toThrow(/Loose\.price is a decimal without declared places/);
    expect(() => inferAttributes(Loose, { price: { type: 'decimal', scale: 2, precision: 16 } })).toThrow(/<= 15/);
  });
});
