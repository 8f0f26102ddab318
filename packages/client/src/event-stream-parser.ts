/**
 * One message of a `text/event-stream`, as the WHATWG HTML standard's parser dispatches it
 * (§9.2.6 "Interpreting an event stream"): its type (`message` when no `event:` field named
 * one), its data (the `data:` lines joined by `\n`), and the last event id seen so far.
 *
 * @example
 * ```ts
 * const message: StreamMessage = { event: 'created', data: '{"issue":{"id":5}}', lastEventId: '7f3a-12' };
 * ```
 */
export interface StreamMessage {
  event: string;
  data: string;
  lastEventId: string;
}

/** What a parser reports: each dispatched message, and each valid `retry:` field. */
export interface StreamParserHandlers {
  message(message: StreamMessage): void;
  /** A `retry: <digits>` field: the reconnection time the server asks for, in milliseconds. */
  retry?(milliseconds: number): void;
}

/**
 * An incremental `text/event-stream` parser: feed it text as it arrives, in chunks split
 * anywhere (mid-line, between `\r` and `\n`); it dispatches each message at its blank line, per
 * the WHATWG rules: lines end with CRLF, LF or CR; a line starting with `:` is a comment;
 * `field: value` loses one space after the colon; `data` lines accumulate; `id` (without NUL)
 * sets the last event id, which persists across messages; `retry` takes only digits; unknown
 * fields are ignored; a message without data is not dispatched; an unfinished message at the end
 * of the stream is dropped. The caller removes a leading byte-order mark (`TextDecoder` does).
 *
 * @example
 * ```ts
 * const parser = new EventStreamParser({ message: (m) => console.log(m.event, JSON.parse(m.data)) });
 * parser.feed('id: 1\nevent: created\nda');
 * parser.feed('ta: {"issue":{"id":5}}\n\n'); // logs: created { issue: { id: 5 } }
 * ```
 */
export class EventStreamParser {
  private buffer = '';
  /** The last chunk ended with `\r`: a `\n` opening the next one belongs to that line end. */
  private afterCr = false;
  private data: string[] = [];
  private event = '';
  /** The `id` of the message being read; it becomes {@link lastId} at the message's end. */
  private idBuffer: string;
  private lastEventId: string;

  constructor(
    private readonly handlers: StreamParserHandlers,
    lastEventId = '',
  ) {
    this.idBuffer = lastEventId;
    this.lastEventId = lastEventId;
  }

  /** The last event id of the messages read to their end (what a reconnection sends as `Last-Event-ID`). */
  get lastId(): string {
    return this.lastEventId;
  }

  /** Parses `chunk`, dispatching every message it completes. */
  feed(chunk: string): void {
    let text = chunk;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    let start = 0;
    const all = this.buffer + text;
    const offset = this.buffer.length;
    this.buffer = '';
    for (let at = offset; at < all.length; at++) {
      const char = all.charCodeAt(at);
      if (char !== 10 && char !== 13) continue;
      this.line(all.slice(start, at));
      if (char === 13) {
        if (at + 1 === all.length) this.afterCr = true;
        else if (all.charCodeAt(at + 1) === 10) at++;
      }
      start = at + 1;
    }
    this.buffer = all.slice(start);
  }

  /** Forgets a partial message (the connection dropped); the last event id stays. */
  reset(): void {
    this.buffer = '';
    this.afterCr = false;
    this.data = [];
    this.event = '';
    this.idBuffer = this.lastEventId;
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.handlers.retry?.(Number(value));
  }

  private dispatch(): void {
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.event = '';
    // The id counts even for a message without data (an `id:` alone moves the resume point).
    this.lastEventId = this.idBuffer;
    if (data.length === 0) return;
    this.handlers.message({ event: event || 'message', data: data.join('\n'), lastEventId: this.lastEventId });
  }
}
