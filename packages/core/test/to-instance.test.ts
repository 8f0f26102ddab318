import 'reflect-metadata';
import { Exclude, Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { toInstance } from '../src/resource/input/to-instance.js';

const attributes = (...names: string[]) => new Map(names.map((name) => [name, {}]));

class Plain {
  name = 'default';
  count?: number;
  get computed(): string {
    return 'computed';
  }
  greet(): string {
    return 'hi';
  }
}

class Transformed {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  name?: string;
}

class Typed {
  @Type(() => Number)
  count?: number;
}

@Exclude()
class Excluded {
  @Expose()
  name?: string;
  secret?: string;
}

class Child extends Transformed {
  other?: string;
}

describe('toInstance', () => {
  it('builds what plainToInstance builds for a model without class-transformer metadata', () => {
    const rules = { model: Plain, attributes: attributes('name', 'count', 'computed', 'greet') };
    for (const values of [{}, { count: 3 }, { name: 'x', count: 1 }, { computed: 'no', greet: 'no', name: 'y' }]) {
      const built = toInstance(rules, values);
      const expected = plainToInstance(Plain, values);
      expect(built).toBeInstanceOf(Plain);
      expect({ ...built }).toEqual({ ...expected });
      expect((built as unknown as Plain).computed).toBe('computed');
      expect((built as unknown as Plain).greet()).toBe('hi');
    }
  });

  it('goes through plainToInstance when the model has @Transform, @Type, @Exclude/@Expose, also inherited', () => {
    expect(toInstance({ model: Transformed, attributes: attributes('name') }, { name: ' a ' })).toMatchObject({
      name: 'a',
    });
    expect(toInstance({ model: Typed, attributes: attributes('count') }, { count: '3' })).toMatchObject({ count: 3 });
    expect({
      ...toInstance({ model: Excluded, attributes: attributes('name', 'secret') }, { name: 'n', secret: 's' }),
    }).toEqual({ name: 'n' });
    expect(
      toInstance({ model: Child, attributes: attributes('name', 'other') }, { name: ' b ', other: 'o' }),
    ).toMatchObject({ name: 'b', other: 'o' });
  });
});
