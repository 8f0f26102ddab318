import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { toBase64Url } from '../schema/base64url.js';

/**
 * The keys an API derives from its one secret, each for one use (HMAC-SHA256 of the secret and
 * the use's label): entity tags are hashed with one, cursors are encrypted with another. The
 * secret is the API's `secret` option or the one its store keeps (`Store.secret`), so that every
 * process of a deployment makes and accepts the same tags and cursors.
 */
export class Keys {
  /** Hashed before what an entity tag covers: a tag cannot be recomputed (or inverted) without the secret. */
  readonly etag: string;
  readonly #cursorBytes: Uint8Array;
  #cursor: Promise<CryptoKey> | undefined;

  constructor(secret: string) {
    this.etag = toBase64Url(derive(secret, 'etag'));
    this.#cursorBytes = derive(secret, 'cursor');
  }

  /** The AES-GCM key of the cursors (WebCrypto, on every runtime), imported once. */
  cursor(): Promise<CryptoKey> {
    this.#cursor ??= crypto.subtle.importKey('raw', this.#cursorBytes as BufferSource, 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    return this.#cursor;
  }
}

let processKeys: Keys | undefined;

/** Keys of a random secret of this process, for contexts made without an API (tests of hooks). */
export function keysOfProcess(): Keys {
  processKeys ??= new Keys(toBase64Url(crypto.getRandomValues(new Uint8Array(32))));
  return processKeys;
}

function derive(secret: string, use: string): Uint8Array {
  return hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`resourcery ${use}`));
}
