import {
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
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
      ref: { name: 'ref', type: 'string', nullable: false },
      at: { name: 'at', type: 'string', nullable: false },
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
