import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { expectProblem, type HttpClient } from '../http-client.js';
import { total } from './library-fixtures.js';

// A `json` attribute (the suite's `note.data`) is stored as sent: a number in it that a double
// cannot keep exactly (its value is not the value of the double's shortest text) is refused, never
// stored changed. Bodies are written as text here: JSON.stringify could not send such numbers.

interface NoteJson {
  id: number;
  title: string;
  data: Record<string, unknown> | null;
}

async function createNote(api: HttpClient, data: string): Promise<NoteJson> {
  const reply = await api.send('POST', '/notes', { body: `{"title": "A note", "data": ${data}}` });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.note as NoteJson;
}

/** Numbers no double keeps: too large, too small, integers past 2^53, digits a double drops. */
const REFUSED: readonly string[] = [
  '{"big": 1e400}',
  '{"negative": -1e400}',
  '{"tiny": 1e-400}',
  '{"id": 12345678901234567890}',
  '{"id": 9007199254740993}',
  '{"x": [1, 2, {"y": 0.1000000000000000055511151231257827}]}',
  '{"price": 19.999999999999999}',
];

/**
 * The group of `json` attribute cases (a number a double cannot keep is 422, the others are kept),
 * on the suite's `note` resource: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [jsonCases];
 * ```
 */
export const jsonCases = group('json', empty, {
  async 'json: a number a double cannot keep exactly is 422 naming the attribute, on create and update'(api) {
    const kept = await createNote(api, '{"n": 1}');
    for (const data of REFUSED) {
      const created = await api.send('POST', '/notes', { body: `{"title": "Refused", "data": ${data}}` });
      expect(Object.keys(expectProblem(created, 422).errors), data).toEqual(['data']);
      const updated = await api.send('PATCH', `/notes/${kept.id}`, { body: `{"note": {"data": ${data}}}` });
      expect(Object.keys(expectProblem(updated, 422).errors), data).toEqual(['data']);
    }
    expect(await total(api, '/notes')).toBe(1);
    expect((await api.get(`/notes/${kept.id}`)).body.note).toEqual(kept);
  },

  async 'json: numbers a double keeps are stored; exponent forms, trailing zeros and -0 are answered as their value'(
    api,
  ) {
    const sent =
      '{"a": 0.1, "b": 1e2, "c": 1.50, "d": -0, "e": 9007199254740992, "f": 5e-324, "g": 1E+21, "h": -25e-8}';
    const note = await createNote(api, sent);
    const value = { a: 0.1, b: 100, c: 1.5, d: 0, e: 9007199254740992, f: 5e-324, g: 1e21, h: -2.5e-7 };
    expect(note.data).toEqual(value);
    const shown = await api.get(`/notes/${note.id}`);
    expect(shown.body.note.data).toEqual(value);
    // -0 is zero: JSON answers the double −0 as 0.
    expect(shown.text).toContain('"d":0,');
  },

  async 'json: numbers inside strings, keys and long text are not numbers (kept as sent)'(api) {
    const long = 'x'.repeat(10_000);
    const data = `{"s": "19.999999999999999", "1e400": "\\"1e400\\"", "${long}": [true, null, "${long}"]}`;
    const note = await createNote(api, data);
    expect(note.data).toEqual(JSON.parse(data));
    expect((await api.get(`/notes/${note.id}`)).body.note.data).toEqual(JSON.parse(data));
  },
});
