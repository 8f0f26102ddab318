// How the checker reads values off the wire: strings of queries, paths and headers as typed
// values, raw query strings as pairs.

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** A schema's `type`, and its alternatives' (`oneOf`, `anyOf`: `count` is a boolean or `estimated`). */
type Typed = { type?: unknown; oneOf?: Typed[]; anyOf?: Typed[] };

/** A string from a query, path or header, read as the schema's type, or one of its alternatives' (form style, plain decimal). */
export function coerce(schema: Typed | undefined, raw: string): unknown {
  const alternatives = [schema, ...(schema?.oneOf ?? []), ...(schema?.anyOf ?? [])];
  const types = alternatives.flatMap((alternative) => [alternative?.type].flat());
  if (types.includes('integer') && INTEGER.test(raw)) return Number(raw);
  if (types.includes('number') && NUMBER.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** A short rendering of a value for a message; a bomb of nested arrays must not overflow the stack. */
export function show(value: unknown): string {
  try {
    return String(JSON.stringify(value)).slice(0, 200);
  } catch {
    return 'too deep to show';
  }
}

/** `[key, value]` pairs of a raw query string, or `undefined` when its percent-encoding is broken. */
export function queryPairs(search: string): [string, string][] | undefined {
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return search
      .replace(/^\?/, '')
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const equals = pair.indexOf('=');
        return equals === -1 ? [decode(pair), ''] : [decode(pair.slice(0, equals)), decode(pair.slice(equals + 1))];
      });
  } catch {
    return undefined;
  }
}
