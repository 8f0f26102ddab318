import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

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
  const bytes = sha256(utf8ToBytes(text)).subarray(0, 17);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').slice(0, 22);
}
