import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { BadRequestError } from '../errors/http-error.js';
import type { Keys } from '../http/keys.js';
import { fromBase64Url, toBase64Url } from '../schema/base64url.js';
import type { Id, Scalar } from '../schema/types.js';
import type { Condition, Order } from '../store/store.js';

// Cursors of keyset pagination: base64url(version, nonce, AES-GCM(position)). The position is
// the last record's sort values, or only its id when those would make the cursor long (a sort on
// a long text): the next page then reads that record again for its values. The cursor is
// encrypted (a client reads nothing from it, hidden sort values included) and authenticated
// together with what it is bound to (the resource, the query's filters and order, and the
// caller's scope), so a forged, edited or borrowed cursor is a 400, never a query of the client's
// making. Whatever the values, a cursor stays under 200 characters.

const VERSION = 2;
const NONCE = 12;
const TAG = 16;
/** The longest plaintext: 1 + 12 + 120 + 16 bytes are 199 base64url characters. */
const MOST_PLAIN = 120;

/** What a cursor is valid for: one resource, one query (filters and order), one caller's scope. */
export interface CursorBinding {
  readonly resource: string;
  readonly where: readonly Condition[];
  /** The conditions of the caller's scope (row rules, tenancy): another caller's cursor is refused. */
  readonly scope: readonly Condition[];
  readonly order: readonly Order[];
}

/** Where the next page starts: after these sort values, or after the record of this id. */
export type CursorPosition = { readonly values: readonly Scalar[] } | { readonly anchor: Id };

function additionalData(binding: CursorBinding): Uint8Array {
  const { resource, where, scope, order } = binding;
  return sha256(utf8ToBytes(JSON.stringify([VERSION, resource, where, scope, order])));
}

/**
 * The cursor of the position after `last` (the last record of a page) in the query of `binding`.
 *
 * @example
 * ```ts
 * const cursor = await encodeCursor(keys, { resource: 'reviews', where, scope: [], order }, lastRecord);
 * ```
 */
export async function encodeCursor(
  keys: Keys,
  binding: CursorBinding,
  last: Readonly<Record<string, unknown>> & { id: Id },
): Promise<string> {
  const values = binding.order.map(({ field }) => (last[field] ?? null) as Scalar);
  let plain = utf8ToBytes(JSON.stringify(values));
  if (plain.length > MOST_PLAIN) plain = utf8ToBytes(JSON.stringify({ a: last.id }));
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonce, additionalData: additionalData(binding) as BufferSource },
      await keys.cursor(),
      plain as BufferSource,
    ),
  );
  const bytes = new Uint8Array(1 + NONCE + sealed.length);
  bytes[0] = VERSION;
  bytes.set(nonce, 1);
  bytes.set(sealed, 1 + NONCE);
  return toBase64Url(bytes);
}

function refused(): BadRequestError {
  return new BadRequestError(
    'after: the cursor was not made by this server for this request (the same resource, filters, sort and user); start again from the first page (without after)',
    'invalid_query',
  );
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The position an `after` cursor stands for, checked: made by this server's keys for the query and
 * caller of `binding`, one value per order key. Anything else is a 400 that says so.
 *
 * @example
 * ```ts
 * const position = await decodeCursor(keys, binding, request.after); // { values: ['2024-05-01T12:00:00.000Z', 'b5f…'] }
 * ```
 */
export async function decodeCursor(keys: Keys, binding: CursorBinding, raw: string): Promise<CursorPosition> {
  const bytes = raw.length <= 200 ? fromBase64Url(raw) : undefined;
  if (!bytes || bytes.length < 1 + NONCE + TAG + 2 || bytes[0] !== VERSION) throw refused();
  let content: unknown;
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: bytes.subarray(1, 1 + NONCE) as BufferSource,
        additionalData: additionalData(binding) as BufferSource,
      },
      await keys.cursor(),
      bytes.subarray(1 + NONCE) as BufferSource,
    );
    content = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw refused();
  }
  if (Array.isArray(content) && content.length === binding.order.length && content.every(isScalar)) {
    return { values: content as Scalar[] };
  }
  const anchor = (content as { a?: unknown } | null)?.a;
  if (typeof anchor === 'number' || typeof anchor === 'string') return { anchor };
  throw refused();
}
