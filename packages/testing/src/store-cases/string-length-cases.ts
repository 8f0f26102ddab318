import { createApi, defineResource } from '@resourcery/core';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { expect } from 'vitest';
import { callApi } from '../call-api.js';
import { longText } from '../long-text.js';
import { storeGroup } from './fixtures.js';

/**
 * Strings of every size a SQL store treats differently: short enough to be indexed (500
 * characters), just over (501), the longest a MySQL VARCHAR holds with an index (765) and one
 * more (a TEXT there), long text, and a string without a limit.
 */
class Text {
  @IsString() @MaxLength(500) short!: string;
  @IsString() @MaxLength(501) over!: string;
  @IsString() @MaxLength(765) varchar!: string;
  @IsString() @MaxLength(766) text!: string;
  @IsString() @MaxLength(20000) long!: string;
  @IsOptional() @IsString() free?: string | null;
}

/** The longest value of each attribute, in characters of 4 UTF-8 bytes (what index entries count). */
function longest(mark: string, free: number) {
  const fill = (length: number) => longText(mark, length);
  return {
    short: fill(500),
    over: fill(501),
    varchar: fill(765),
    text: fill(766),
    long: fill(20000),
    free: fill(free),
  };
}

/** Records as the API answers them: `{ "<name>": {...} }` or `{ "<plural>": [...] }`. */
const only = (body: unknown) => Object.values(body as Record<string, unknown>)[0];

/** Valid values are stored whatever their length: no index, column or key may refuse one. */
export const stringLengthCases = storeGroup('string lengths', {
  'stores, finds and sorts the longest valid value of every string size, through the API': async (
    _collection,
    home,
  ) => {
    const resource = defineResource({ name: `${home.schema.name}t`, model: Text, unique: ['short'] });
    const api = createApi({ resources: [resource], store: home.store, openapi: false, logError: () => {} });
    const path = `/${resource.plural}`;
    const first = longest('a', 100_000);
    const created = await callApi(api, { method: 'POST', path, body: first });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = (only(created.body) as { id: number }).id;
    expect(only(created.body)).toEqual({ id, ...first });
    expect(only((await callApi(api, { method: 'GET', path: `${path}/${id}` })).body)).toEqual({ id, ...first });

    const second = longest('b', 200_000);
    const updated = await callApi(api, { method: 'PATCH', path: `${path}/${id}`, body: second });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(only(updated.body)).toEqual({ id, ...second });
    const other = await callApi(api, { method: 'POST', path, body: first });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const taken = await callApi(api, { method: 'POST', path, body: second });
    expect(taken.status).toBe(422);
    expect((taken.body as { errors: unknown }).errors).toEqual({ short: ['is already taken'] });

    for (const field of ['short', 'over', 'varchar', 'text', 'long'] as const) {
      const query = `filter[${field}]=${encodeURIComponent(second[field])}&sort=-${field}`;
      const found = await callApi(api, { method: 'GET', path: `${path}?${query}` });
      expect(found.status, `${field}: ${JSON.stringify(found.body)}`).toBe(200);
      expect((only(found.body) as { id: number }[]).map((record) => record.id)).toEqual([id]);
    }
    const sorted = await callApi(api, { method: 'GET', path: `${path}?sort=-free&fields=short` });
    expect(only(sorted.body)).toEqual([
      { id, short: second.short },
      { id: (only(other.body) as { id: number }).id, short: first.short },
    ]);
  },
});
