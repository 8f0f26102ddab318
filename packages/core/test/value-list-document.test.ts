import 'reflect-metadata';
import { IsEnum, IsIn, IsOptional, IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/build-document.js';
import { defineResource } from '../src/resource/define-resource.js';

// Listed values (`@IsIn`, `@IsEnum`) are an `enum` wherever the value is: record, inputs (with
// `null` when nullable), and said on the `filter[...]` of the field.

enum Size {
  Small = 1,
  Large = 3,
}
class Ticket {
  @IsString() title!: string;
  @IsIn(['open', 'in_progress', 'done']) status!: string;
  @IsOptional() @IsEnum(Size) size?: Size | null;
  @IsOptional() @IsIn(['a', 'b']) mood?: string | null;
}
const tickets = defineResource({ name: 'ticket', model: Ticket });
// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
const document: any = openApiDocument([tickets]);
const { schemas } = document.components;

describe('listed values in the OpenAPI document', () => {
  it('are an enum in the record and in both inputs, null listed where nullable', () => {
    for (const name of ['Ticket', 'TicketCreateInput', 'TicketUpdateInput']) {
      const { properties } = schemas[name];
      expect(properties.status).toMatchObject({ type: 'string', enum: ['open', 'in_progress', 'done'] });
      expect(properties.size).toMatchObject({ type: ['integer', 'null'], enum: [1, 3, null] });
      expect(properties.mood).toMatchObject({ type: ['string', 'null'], enum: ['a', 'b', null] });
      expect(properties.title.enum).toBeUndefined();
    }
  });

  it("are said on the field's filter, which takes any value (another matches nothing)", () => {
    const parameters = document.paths['/tickets'].get.parameters;
    const status = parameters.find((parameter: { name: string }) => parameter.name === 'filter[status]');
    expect(status.description).toContain('Its values: `open`, `in_progress`, `done` (any other matches nothing).');
    expect(status.schema.enum).toBeUndefined();
    const title = parameters.find((parameter: { name: string }) => parameter.name === 'filter[title]');
    expect(title.description).not.toContain('Its values');
  });
});
