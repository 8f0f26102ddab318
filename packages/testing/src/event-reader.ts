/** One Server-Sent Event as a reader received it. */
export interface ReceivedEvent {
  /** The `id:` field (the last one given, as `EventSource.lastEventId`). */
  readonly id: string;
  /** The `event:` field (`message` without one). */
  readonly event: string;
  /** The `data:` lines, joined with `\n`. */
  readonly data: string;
}

/** An open `text/event-stream` answer, read event by event. */
export interface EventReader {
  readonly status: number;
  readonly headers: Headers;
  /** The answer's body when it is no stream (a problem). */
  readonly text: string;
  /** The next event, or `undefined` when the stream ended; rejects after `waitMs` (default 5,000) without one. */
  next(waitMs?: number): Promise<ReceivedEvent | undefined>;
  /** Events until one matches `until` (which is answered last), or the stream ends. */
  until(until: (event: ReceivedEvent) => boolean, waitMs?: number): Promise<ReceivedEvent[]>;
  /** The comment lines (`: …`) seen so far. */
  readonly comments: readonly string[];
  /** Closes the connection. */
  close(): void;
}

/**
 * Opens a Server-Sent Events stream with `fetch` and reads it as the WHATWG rules do (fields
 * `id`, `event`, `data`, comments, CR/LF/CRLF line ends), independently of any client the
 * library ships: for tests of live events over real HTTP.
 *
 * @example
 * ```ts
 * const events = await openEvents(`${baseUrl}/issues/events`, { authorization: `Bearer ${token}` });
 * await fetch(`${baseUrl}/issues`, { method: 'POST', … });
 * (await events.next())?.event; // 'created'
 * events.close();
 * ```
 */
export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const streaming = /^text\/event-stream/.test(response.headers.get('content-type') ?? '');
  const text = streaming ? '' : await response.text();
  const reader = streaming ? response.body?.getReader() : undefined;
  const decoder = new TextDecoder();
  const ready: ReceivedEvent[] = [];
  const comments: string[] = [];
  let buffer = '';
  let ended = !reader;
  let lastId = '';
  let event = '';
  let data: string[] = [];

  const line = (raw: string) => {
    if (raw === '') {
      if (data.length > 0) ready.push({ id: lastId, event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (raw.startsWith(':')) {
      comments.push(raw.slice(1).trim());
      return;
    }
    const colon = raw.indexOf(':');
    const field = colon < 0 ? raw : raw.slice(0, colon);
    let value = colon < 0 ? '' : raw.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  };

  const pull = async (): Promise<void> => {
    const chunk = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
    if (chunk.done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(chunk.value, { stream: true });
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A lone CR at the very end may be the first half of a CRLF still to come.
      if (buffer[end] === '\r' && end === buffer.length - 1) break;
      const width = buffer.startsWith('\r\n', end) ? 2 : 1;
      line(buffer.slice(0, end));
      buffer = buffer.slice(end + width);
    }
  };

  const next = async (waitMs = 5_000): Promise<ReceivedEvent | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no event within ${waitMs} ms`)), waitMs);
    });
    try {
      while (ready.length === 0 && !ended) await Promise.race([pull(), late]);
      return ready.shift();
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    status: response.status,
    headers: response.headers,
    text,
    comments,
    next,
    async until(until, waitMs) {
      const seen: ReceivedEvent[] = [];
      for (;;) {
        const received = await next(waitMs);
        if (!received) return seen;
        seen.push(received);
        if (until(received)) return seen;
      }
    },
    close() {
      ended = true;
      abort.abort();
    },
  };
}
