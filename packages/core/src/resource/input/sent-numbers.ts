import { parse } from 'lossless-json';
import { BadRequestError } from '../../errors/http-error.js';
import { sentText } from '../../http/read-body.js';
import { isExactDouble } from '../../schema/number-text.js';

/** A number of the body as the client wrote it. */
class SentNumber {
  constructor(readonly text: string) {}
}

/** Every value one key was given in one object, in order (`JSON.parse` keeps the last). */
class Repeated {
  constructor(readonly values: readonly unknown[]) {}
}

const OPTIONS = {
  parseNumber: (text: string) => new SentNumber(text),
  onDuplicateKey: ({ oldValue, newValue }: { oldValue: unknown; newValue: unknown }) =>
    new Repeated([...(oldValue instanceof Repeated ? oldValue.values : [oldValue]), newValue]),
};

/**
 * A string that is a key of at most 128 characters (kept), or any other string (its quotes kept,
 * its content dropped). lossless-json reads strings a character at a time, a hundred times slower
 * than `JSON.parse`; numbers are never inside strings, so a long text is given to it with no
 * string left but short keys: one native replace, and a body of long strings then costs about
 * what `JSON.parse` does. Long keys all become `""`: `Repeated` keeps the values of keys that
 * become equal.
 */
const STRINGS = /(?<key>"(?:[^"\\]|\\.){0,128}"(?=\s*:))|(?<open>")[^"\\]*(?:\\.[^"\\]*)*(?<close>")/gs;

/**
 * A text where this finds nothing has no number token of more than 15 digits and none in
 * exponent form: every number in it has at most 15 significant digits, below 10^15, so its double
 * keeps it exactly and the double's shortest text has its value. Most bodies are such texts, and
 * need no second reading (a match in a key, or in a string of a short text, only means they get
 * one). A long text is tested once its strings are emptied: the test then costs little.
 */
const LONG_OR_EXPONENT = /\d[\d.]{15}|\d[eE]/;

/** Below this many characters the strings are left in: emptying them would cost more than it saves. */
const SHORT_TEXT = 4096;

/**
 * The JSON text with every string emptied but keys of at most 128 characters (counting an escape
 * sequence's characters after its first two one by one), and those kept as written: what a long
 * text is given to lossless-json as.
 *
 * @example
 * ```ts
 * emptyStrings('{"title": "Dune", "price": 1.5e1}'); // '{"title": "", "price": 1.5e1}'
 * ```
 */
export function emptyStrings(text: string): string {
  return text.replace(STRINGS, '$<key>$<open>$<close>');
}

function last(value: unknown): unknown {
  return value instanceof Repeated ? value.values[value.values.length - 1] : value;
}

function member(object: unknown, key: string): unknown {
  return typeof object === 'object' && object !== null && Object.hasOwn(object, key)
    ? last((object as Record<string, unknown>)[key])
    : undefined;
}

/**
 * The numbers of a request body as the client wrote them, read from the body's text
 * (`sentText`) with lossless-json the first time one is asked for: a body that holds no number
 * where its text matters never pays for it. Without the text (a body parsed by an earlier
 * middleware), every answer is `undefined` and the doubles are all there is.
 *
 * @example
 * ```ts
 * const sent = new SentNumbers(body, 'book'); // the members are under `book`
 * sent.numberText('price'); // '19.999999999999999'
 * ```
 */
export class SentNumbers {
  readonly #text: string | undefined;
  readonly #wrapper: string | undefined;
  /** The short text read, or `null` when it has only numbers that their doubles keep. */
  #short: { members: unknown } | null | undefined;
  #whole: { members: unknown } | undefined;

  /** `wrapper`: the key of the body the members sit under, when it was wrapped. */
  constructor(body: unknown, wrapper: string | undefined) {
    this.#text = sentText(body);
    this.#wrapper = wrapper;
  }

  /**
   * The value sent for `field`, numbers as `SentNumber`s and strings emptied; `undefined` without
   * text, or when every number of the text is one its double keeps (then the doubles say it all).
   */
  #sent(field: string): unknown {
    const text = this.#text;
    if (text === undefined) return undefined;
    if (this.#short === undefined) {
      const short = text.length < SHORT_TEXT ? text : emptyStrings(text);
      this.#short = LONG_OR_EXPONENT.test(short) ? this.#read(short) : null;
    }
    if (this.#short === null) return undefined;
    const found = member(this.#short.members, field);
    if (found !== undefined) return found;
    // An attribute named with more than 128 characters: its key was dropped from the short text.
    this.#whole ??= this.#read(text);
    return member(this.#whole.members, field);
  }

  #read(text: string): { members: unknown } {
    let tree: unknown;
    try {
      tree = parse(text, null, OPTIONS);
    } catch (error) {
      // JSON.parse read this text: only a disagreement between the two parsers lands here.
      const reason = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : '';
      throw new BadRequestError(`The request body is not valid JSON${reason}`, 'malformed_body');
    }
    return { members: this.#wrapper === undefined ? tree : member(tree, this.#wrapper) };
  }

  /**
   * The text of the JSON number sent as `field` (`1.5e1`), or `undefined` when the double's
   * shortest text has its value or the text is not known.
   */
  numberText(field: string): string | undefined {
    const sent = this.#sent(field);
    return sent instanceof SentNumber ? sent.text : undefined;
  }

  /**
   * The first number anywhere in the value sent as `field` that a double does not keep exactly
   * (`isExactDouble`), as written; without the text (or with only short numbers), the first
   * that is not finite in `parsed`. A value given twice under one key is judged whole, the one
   * `JSON.parse` dropped included.
   */
  inexactNumber(field: string, parsed: unknown): string | undefined {
    const sent = this.#sent(field);
    return sent === undefined ? nonFinite(parsed) : inexact(sent);
  }
}

function inexact(value: unknown): string | undefined {
  if (value instanceof SentNumber) return isExactDouble(value.text) ? undefined : value.text;
  const members =
    value instanceof Repeated ? value.values : typeof value === 'object' && value ? Object.values(value) : [];
  for (const item of members) {
    const found = inexact(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

function nonFinite(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : String(value);
  if (typeof value !== 'object' || value === null) return undefined;
  for (const item of Object.values(value)) {
    const found = nonFinite(item);
    if (found !== undefined) return found;
  }
  return undefined;
}
