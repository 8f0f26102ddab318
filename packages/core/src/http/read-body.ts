import { echo } from '../errors/echo.js';
import { BadRequestError, HttpError } from '../errors/http-error.js';
import { contentCoding, decodeBody } from './content-coding.js';
import { concatBytes, type NeutralRequest } from './neutral.js';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * Reads and parses a JSON request body under a size limit. Refuses a non-JSON content type or
 * a `Content-Encoding` other than gzip or deflate (415) before reading, a declared
 * `Content-Length` over the limit (413) before reading, and stops reading as soon as a chunked
 * body passes the limit (413); a gzip or deflate body is decoded under the same limit. Broken
 * JSON or UTF-8 is a 400, and so is a body the connection failed to deliver whole.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(request, 1024 * 1024);
 * ```
 */
export async function readJsonBody(request: NeutralRequest, limit: number, maxDepth = 32): Promise<unknown> {
  const contentType = request.headers['content-type'] ?? '';
  if (!isJsonType(contentType)) {
    throw new HttpError(415, 'unsupported_media_type', {
      detail: `The request body must be JSON (Content-Type: application/json)${contentType ? `, not ${echo(contentType)}` : ''}`,
      headers: { 'Accept-Patch': 'application/json' },
    });
  }

  if (request.body === undefined || request.parsedBody !== undefined) {
    if (request.parsedBody === undefined) throw emptyBody();
    return request.parsedBody;
  }

  const coding = contentCoding(request.headers['content-encoding']);
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);

  let bytes: Uint8Array;
  try {
    bytes =
      declared >= 0 && request.readDeclaredBody
        ? await request.readDeclaredBody()
        : await readChunks(request.body, limit);
  } catch (error) {
    throw error instanceof HttpError ? error : unreadable(error);
  }
  if (bytes.byteLength === 0) throw emptyBody();
  if (coding !== undefined) {
    bytes = await decodeBody(bytes, coding, limit);
    if (bytes.byteLength === 0) throw emptyBody();
  }

  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8', 'malformed_body');
  }
  // Checked on the text, before parsing, so that no deep structure is ever built.
  if (mayNestDeeper(text, maxDepth) && nestingDepth(text) > maxDepth) {
    throw new BadRequestError(
      `The request body nests arrays or objects deeper than ${maxDepth} levels`,
      'malformed_body',
    );
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) SENT.set(body, text);
    return body;
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : '';
    throw new BadRequestError(`The request body is not valid JSON${reason}`, 'malformed_body');
  }
}

/** The text each body `readJsonBody` answered was parsed from (objects and arrays only). */
const SENT = new WeakMap<object, string>();

/**
 * The JSON text a body answered by {@link readJsonBody} was parsed from, or `undefined` for any
 * other value (a body an earlier middleware parsed, a value built in code). `JSON.parse` keeps
 * no number's text: this is what judges `19.999999999999999` as written, not as the double 20.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(request, 1024 * 1024);
 * sentText(body); // '{"price": 19.999999999999999}'
 * ```
 */
export function sentText(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? SENT.get(body) : undefined;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ENCODER = new TextEncoder();

function toBytes(chunk: Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? ENCODER.encode(chunk) : chunk;
}

/** Reads any body, stopping as soon as it passes the limit (413). */
async function readChunks(body: AsyncIterable<Uint8Array | string>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = toBytes(chunk);
    size += bytes.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(bytes);
  }
  return concatBytes(chunks);
}

/** Content types already judged (a client sends the same few): whether each is JSON in UTF-8. */
const judged = new Map<string, boolean>();

/** Whether a `Content-Type` names JSON (`application/json`, `application/*+json`) in UTF-8. */
function isJsonType(contentType: string): boolean {
  let verdict = judged.get(contentType);
  if (verdict === undefined) {
    const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
    const charset = parameters
      .find((parameter) => parameter.startsWith('charset='))
      ?.slice(8)
      .replace(/"/g, '');
    verdict = JSON_MEDIA_TYPE.test(mediaType) && (charset === undefined || charset === 'utf-8' || charset === 'utf8');
    if (judged.size >= 64) judged.clear();
    judged.set(contentType, verdict);
  }
  return verdict;
}

/**
 * Whether the text holds more than `maxDepth` opening brackets (outside strings or not): only
 * then can it nest deeper, so the character-by-character scan is skipped for most bodies.
 */
function mayNestDeeper(text: string, maxDepth: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > maxDepth) return true;
    }
  }
  return false;
}

/** Deepest `[`/`{` nesting of a JSON text, skipping strings (an upper bound if it is invalid). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

function emptyBody(): BadRequestError {
  return new BadRequestError('The request body is empty: send a JSON object', 'malformed_body');
}

/**
 * The body stopped coming (the client closed the connection, the runtime failed the stream): a
 * client-side failure, never a server fault. The stream's error stays the cause, for one log line.
 */
function unreadable(cause: unknown): HttpError {
  return new BadRequestError(
    'The request body could not be read: the connection failed before it ended',
    'bad_request',
    {
      cause,
      headers: { Connection: 'close' },
    },
  );
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', {
    detail: `The request body is larger than the limit of ${limit} bytes`,
    // The rest of the body is not read: close the connection rather than drain it.
    headers: { Connection: 'close' },
  });
}
