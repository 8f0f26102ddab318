import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digest22, etagOf, portableDigest22 } from '../src/http/conditional.js';

const KEY = 'k3y';

/** The tag as defined: SHA-256 of the key, then the JSON of the sorted `[field, value]` pairs. */
function reference(record: Record<string, unknown>, key = KEY): string {
  const fields = Object.keys(record).sort();
  const state = JSON.stringify(fields.map((field) => [field, record[field] ?? null]));
  return `"${hash('sha256', key + state, 'base64url').slice(0, 22)}"`;
}

describe('etagOf', () => {
  it('answers the tag of the reference definition (same tags across versions and processes)', () => {
    const records: Record<string, unknown>[] = [
      {},
      { id: 1, name: 'Dune', author: 'Herbert' },
      { author: 'Herbert', id: 1, name: 'Dune' },
      { b: 1, a: 'x"\\\u2028\ud800\n', c: null, d: undefined, e: Number.NaN, f: -0, g: 1e21, h: true, i: false },
      { j: new Date(0), k: Number.POSITIVE_INFINITY, l: 1.5, m: { x: 1 }, n: [1, undefined], 'a"b': 'q' },
    ];
    for (const record of records) expect(etagOf(KEY, record)).toBe(reference(record));
  });

  it('matches the reference on any record', () => {
    const scalar = fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), scalar), { minLength: 1, maxLength: 4 }), (records) => {
        for (const record of records) expect(etagOf(KEY, record)).toBe(reference(record));
      }),
    );
  });
});

describe('etagOf and its key', () => {
  it('gives another tag under another key: a tag cannot be recomputed from a guess without the key', () => {
    const record = { id: 1, name: 'Ada', salary: 5000 };
    expect(etagOf(KEY, record)).not.toBe(etagOf('other key', record));
    expect(etagOf('', record)).not.toBe(etagOf(KEY, record));
    expect(etagOf('other key', record)).toBe(reference(record, 'other key'));
  });
});

describe('digest22', () => {
  it('gives the same digest in portable JavaScript as with the runtime hash, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(portableDigest22(text)).toBe(hash('sha256', text, 'base64url').slice(0, 22));
        expect(digest22(text)).toBe(portableDigest22(text));
      }),
    );
  });
});
