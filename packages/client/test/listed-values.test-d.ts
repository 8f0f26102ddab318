import 'reflect-metadata';
import { defineResource } from '@resourcery/core';
import { IsEnum, IsIn, IsOptional, IsString } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import { resourceClient } from '../src/index.js';

// Listed values (`@IsIn`, `@IsEnum`): the client types a field by the model's own TypeScript
// type, so a model that declares the union (or the enum) gets it in records, inputs and filters.
// Checked by the compiler only: every `@ts-expect-error` is a mistake the types must refuse.

const STATUSES = ['open', 'in_progress', 'done'] as const;
type Status = (typeof STATUSES)[number];
enum Size {
  Small = 1,
  Large = 3,
}

class Ticket {
  @IsString() title!: string;
  @IsIn(STATUSES) status!: Status;
  @IsOptional() @IsEnum(Size) size?: Size | null;
}
const tickets = defineResource({ name: 'ticket', model: Ticket });
const client = resourceClient<typeof tickets>({ baseUrl: 'http://localhost:3000/api', name: 'ticket' });

describe('a field with listed values is typed by the union the model declares', () => {
  it('in records', () => {
    expectTypeOf(client.show(1)).resolves.toEqualTypeOf<{
      id: number;
      title: string;
      status: 'open' | 'in_progress' | 'done';
      size: Size | null;
    }>();
  });

  it('in create and update inputs, refusing another value', () => {
    client.create({ title: 'A', status: 'done', size: Size.Large });
    client.update(1, { status: 'in_progress', size: null });
    // @ts-expect-error: not one of the listed values
    client.create({ title: 'A', status: 'closed' });
    // @ts-expect-error: not one of the listed values
    client.update(1, { status: 'Open' });
  });

  it('in filters', () => {
    client.index({ filter: { status: ['open', 'done'], size: Size.Small } });
    // @ts-expect-error: not one of the listed values
    client.index({ filter: { status: 'closed' } });
  });
});
