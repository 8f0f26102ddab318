import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { HttpError } from '../errors/http-error.js';
import { toBase64Url } from '../schema/base64url.js';
import type { Scalar } from '../schema/types.js';
import type { Condition } from '../store/store.js';

/**
 * The entity tag of a record: a strong tag hashed from its whole stored state, so any change to
 * the record changes it, in every process that shares the key. The hash covers a secret key
 * first (`Keys.etag`), so a tag reveals nothing of what it covers: holding it does not let
 * anyone test guesses of a field they cannot read.
 *
 * @example
 * ```ts
 * etagOf(keys.etag, { id: 1, name: 'Dune', author: 'Herbert' }); // '"3Wq1n0sY2CkR6Q8nXa0b1c"'
 * ```
 */
export function etagOf(key: string, record: Readonly<Record<string, unknown>>): string {
  // Hashes `JSON.stringify(fields.sort().map((f) => [f, record[f] ?? null]))`, built piece by piece.
  const fields = sortedFields(record);
  let state = `${key}[`;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    state += `${i === 0 ? '' : ','}[${quoted(field)},${jsonOf(record[field])}]`;
  }
  return `"${digest22(`${state}]`)}"`;
}

/** The last key order seen and its sorted copy: records of one store share their key order. */
let lastKeys: string[] = [];
let lastSorted: string[] = [];

function sortedFields(record: Readonly<Record<string, unknown>>): string[] {
  const keys = Object.keys(record);
  if (keys.length === lastKeys.length && keys.every((key, i) => key === lastKeys[i])) return lastSorted;
  lastKeys = keys;
  lastSorted = [...keys].sort();
  return lastSorted;
}

/** Field names as JSON strings, cached (a store has few). */
const quotedNames = new Map<string, string>();

function quoted(field: string): string {
  let json = quotedNames.get(field);
  if (json === undefined) {
    json = JSON.stringify(field);
    if (quotedNames.size < 1000) quotedNames.set(field, json);
  }
  return json;
}

/** A value as `JSON.stringify` writes it as an array element (`undefined` is `null`). */
function jsonOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : JSON.stringify([value]).slice(1, -1);
  }
}

/** The entity tags listed in an `If-Match` / `If-None-Match` header; `*` stands for any. */
function listed(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/**
 * Whether `If-None-Match` names the current tag (weak comparison, RFC 9110 §13.1.2): a show
 * then answers 304 Not Modified.
 */
export function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return listed(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
}

/**
 * Checks `If-Match` (strong comparison, RFC 9110 §13.1.1) before an action goes on: throws 412
 * when no listed tag is the current `etag`. `*` matches anything that exists; a target without
 * an entity tag (`undefined`: the collection, on index and create) matches only `*`.
 */
export function checkIfMatch(header: string | undefined, etag: string | undefined): void {
  if (header === undefined) return;
  if (listed(header).some((tag) => tag === '*' || (etag !== undefined && !tag.startsWith('W/') && tag === etag))) {
    return;
  }
  if (etag === undefined) {
    throw new HttpError(412, 'precondition_failed', {
      detail: 'If-Match lists entity tags, but the collection has none: only If-Match: * can match it',
    });
  }
  throw preconditionFailed();
}

/** The 412 answered when the record changed since the client read it. */
export function preconditionFailed(): HttpError {
  return new HttpError(412, 'precondition_failed', {
    detail: 'The record has changed since you read it (If-Match does not match its current ETag); read it again',
  });
}

/**
 * Conditions that hold only while the record is still in the state it was read in: adding them
 * to an update or destroy makes the write a compare-and-swap, so a concurrent change between
 * the read and the write (in this process or another) is detected, never overwritten.
 */
export function unchangedSince(record: Readonly<Record<string, unknown>>): Condition[] {
  return Object.entries(record)
    .filter(([field]) => field !== 'id')
    .map(([field, value]) => ({ field, values: [(value ?? null) as Scalar] }));
}

type NativeHash = (algorithm: string, data: string, encoding: 'base64url') => string;

/**
 * The runtime's own one-shot hash (`crypto.hash` of Node 20.12+, Bun and Deno's Node layer),
 * found without importing a Node module, so that this file loads on any runtime.
 */
const nativeHash = ((): NativeHash | undefined => {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
    const crypto = runtime?.getBuiltinModule?.('crypto') as { hash?: NativeHash } | undefined;
    return typeof crypto?.hash === 'function' ? crypto.hash : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * The first 22 base64url characters of the SHA-256 of a text: the runtime's native hash where
 * it has one (six times faster), else SHA-256 in portable JavaScript; both give the same digest.
 */
export function digest22(text: string): string {
  if (nativeHash) return nativeHash('sha256', text, 'base64url').slice(0, 22);
  return portableDigest22(text);
}

/** {@link digest22} in portable JavaScript, for runtimes without a native hash (and to test both agree). */
export function portableDigest22(text: string): string {
  return toBase64Url(sha256(utf8ToBytes(text)).subarray(0, 17)).slice(0, 22);
}
