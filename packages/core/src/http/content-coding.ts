import { echo } from '../errors/echo.js';
import { BadRequestError, HttpError } from '../errors/http-error.js';
import { concatBytes } from './neutral.js';

/** The content codings a request body may come in, by the names `DecompressionStream` knows them. */
const FORMATS: ReadonlyMap<string, 'gzip' | 'deflate'> = new Map([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
]);

/** `Accept-Encoding` of a 415 for a coding the API does not decode (RFC 9110 §15.5.16). */
const ACCEPTED = 'gzip, deflate';

/**
 * The coding a request body's `Content-Encoding` names, checked before the body is read:
 * `undefined` for none (or `identity`), `gzip` or `deflate` to decode, 415 for any other coding
 * (`br`, `compress`, an unknown name) and for codings applied on top of one another. A coding is
 * never ignored: a body would otherwise be parsed, or stored, as something it is not.
 */
export function contentCoding(header: string | undefined): 'gzip' | 'deflate' | undefined {
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return undefined;
  const format = codings.length === 1 ? FORMATS.get(codings[0] as string) : undefined;
  if (format === undefined) {
    throw new HttpError(415, 'unsupported_media_type', {
      detail: `The request body must be sent uncompressed, gzip or deflate, not with Content-Encoding: ${echo(header)}`,
      headers: { 'Accept-Encoding': ACCEPTED },
    });
  }
  return format;
}

/**
 * Decodes a gzip or deflate body with the runtime's `DecompressionStream`, stopping as soon as
 * the decoded bytes pass `limit` (413): the limit is on what would be parsed, so a small body
 * that inflates to gigabytes is refused after `limit` bytes of work. Data that is not of the
 * coding (or is cut short) is a 400.
 */
export async function decodeBody(bytes: Uint8Array, format: 'gzip' | 'deflate', limit: number): Promise<Uint8Array> {
  const source = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(bytes as Uint8Array<ArrayBuffer>);
      controller.close();
    },
  });
  const reader = source.pipeThrough(new DecompressionStream(format)).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) break;
      chunks.push(read.value);
    }
  } catch {
    throw new BadRequestError(`The request body is not valid ${format} data`, 'malformed_body');
  }
  if (size <= limit) return concatBytes(chunks);
  reader.cancel().catch(() => undefined);
  // The body was read whole: unlike a 413 on the wire, this one keeps the connection.
  throw new HttpError(413, 'payload_too_large', {
    detail: `The request body is larger than the limit of ${limit} bytes once decoded`,
  });
}
