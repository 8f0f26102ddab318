import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { BadRequestError } from '../errors/http-error.js';
import type { Scalar } from '../schema/types.js';
import type { Condition, Order } from '../store/store.js';

// Cursors of keyset pagination: `base64url(JSON) . base64url(HMAC-SHA256)`. The JSON holds a
// version, a fingerprint of the query's filters and order, and the last record's sort values
// and id; the signature makes a forged or edited cursor a 400, never a query of the client's
// making. HMAC in portable JavaScript (@noble/hashes) runs synchronously on every runtime.

const VERSION = 1;

let processKey: Uint8Array | undefined;

/** A random key for this process, for contexts made without an API. */
export function processCursorKey(): Uint8Array {
  processKey ??= cursorKey();
  return processKey;
}

/** The signing key of an API's cursors: from its `cursorSecret`, else random per process. */
export function cursorKey(secret?: string): Uint8Array {
  if (secret !== undefined) return sha256(utf8ToBytes(secret));
  return crypto.getRandomValues(new Uint8Array(32));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Equal bytes, compared in constant time for equal lengths. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** What a cursor is bound to: the filters and the order of the query that made it. */
function fingerprint(where: readonly Condition[], order: readonly Order[]): string {
  return toBase64Url(sha256(utf8ToBytes(JSON.stringify([where, order]))).subarray(0, 12));
}

/**
 * The cursor of the position after `values` (one per order key, the last being the id) in the
 * query of `where` and `order`.
 *
 * @example
 * ```ts
 * const cursor = encodeCursor(key, query.where, query.order, ['2024-05-01T12:00:00.000Z', 'b5f...']);
 * ```
 */
export function encodeCursor(
  key: Uint8Array,
  where: readonly Condition[],
  order: readonly Order[],
  values: readonly Scalar[],
): string {
  const payload = toBase64Url(utf8ToBytes(JSON.stringify({ v: VERSION, q: fingerprint(where, order), k: values })));
  return `${payload}.${toBase64Url(hmac(sha256, key, utf8ToBytes(payload)))}`;
}

/**
 * The position an `after` cursor stands for, checked: signed with `key`, made for this query
 * (same filters and order), one value per order key. Anything else is a 400 that says so.
 *
 * @example
 * ```ts
 * const after = decodeCursor(key, query.where, query.order, request.after); // ['2024-05-01T12:00:00.000Z', 'b5f...']
 * ```
 */
export function decodeCursor(
  key: Uint8Array,
  where: readonly Condition[],
  order: readonly Order[],
  raw: string,
): Scalar[] {
  const refused = (why: string) =>
    new BadRequestError(`after: ${why}; start again from the first page (without after)`, 'invalid_query');
  const [payload = '', signature = '', extra] = raw.split('.');
  const signed = fromBase64Url(signature);
  // Re-encoding must give the text sent: atob ignores the unused bits of the last character.
  const canonical = signed !== undefined && toBase64Url(signed) === signature;
  if (extra !== undefined || !canonical || !sameBytes(signed, hmac(sha256, key, utf8ToBytes(payload)))) {
    throw refused('the cursor is not one this server made');
  }
  let content: { v?: unknown; q?: unknown; k?: unknown };
  try {
    content = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
  } catch {
    throw refused('the cursor is not one this server made');
  }
  if (content.v !== VERSION || content.q !== fingerprint(where, order)) {
    throw refused('the cursor belongs to another query (other filters or sort)');
  }
  const values = content.k;
  const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!Array.isArray(values) || values.length !== order.length || !values.every(scalar)) {
    throw refused('the cursor is not one this server made');
  }
  return values as Scalar[];
}
