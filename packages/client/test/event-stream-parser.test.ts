import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, type StreamMessage } from '../src/event-stream-parser.js';

/** The messages and retries `chunks` make, fed one after the other to one parser. */
function parse(chunks: readonly string[], lastEventId?: string) {
  const messages: StreamMessage[] = [];
  const retries: number[] = [];
  const parser = new EventStreamParser(
    { message: (message) => messages.push(message), retry: (ms) => retries.push(ms) },
    lastEventId,
  );
  for (const chunk of chunks) parser.feed(chunk);
  return { messages, retries, lastId: parser.lastId };
}

const STREAM = [
  'retry: 1000',
  '',
  ': keep-alive',
  '',
  'id: e1-1',
  'event: created',
  'data: {"issue":{"id":1}}',
  '',
  'id: e1-2',
  'event: destroyed',
  'data: {"issue":',
  'data: {"id":1}}',
  '',
  'data: plain',
  '',
  '',
].join('\n');

const EXPECTED: StreamMessage[] = [
  { event: 'created', data: '{"issue":{"id":1}}', lastEventId: 'e1-1' },
  { event: 'destroyed', data: '{"issue":\n{"id":1}}', lastEventId: 'e1-2' },
  { event: 'message', data: 'plain', lastEventId: 'e1-2' },
];

describe('EventStreamParser', () => {
  it('dispatches each message at its blank line: event, data lines joined by \\n, the last id; comments skipped', () => {
    const { messages, retries, lastId } = parse([STREAM]);
    expect(messages).toEqual(EXPECTED);
    expect(retries).toEqual([1000]);
    expect(lastId).toBe('e1-2');
  });

  it('gives the same messages however the stream is cut into chunks (mid-line, mid-field, between CR and LF)', () => {
    const texts = [STREAM, STREAM.replaceAll('\n', '\r\n'), STREAM.replaceAll('\n', '\r')];
    fc.assert(
      fc.property(
        fc.constantFrom(...texts),
        fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length * 2 }), { maxLength: 30 }),
        (text, cuts) => {
          const at = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
          const chunks = at.slice(1).map((end, index) => text.slice(at[index], end));
          expect(parse(chunks).messages).toEqual(EXPECTED);
        },
      ),
    );
  });

  it('takes CRLF, LF and CR line ends, mixed; a CR ending one chunk and an LF opening the next are one line end', () => {
    expect(parse(['data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n']).messages.map((m) => m.data)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    // Were the LF a second line end, `data: x` would be dispatched alone, before `data: y`.
    expect(parse(['data: x\r', '\ndata: y\r', '\n\r', '\n']).messages.map((m) => m.data)).toEqual(['x\ny']);
  });

  it('removes one space after the colon only; a line without a colon is a field with an empty value', () => {
    const { messages } = parse(['data:  two spaces\ndata:none\ndata\n\n']);
    expect(messages[0]?.data).toBe(' two spaces\nnone\n');
  });

  it('ignores unknown fields, and a retry that is not only digits', () => {
    const { messages, retries } = parse(['foo: bar\nretry: 1e3\nretry: -5\nretry: 250\ndata: ok\nDATA: no\n\n']);
    expect(messages).toEqual([{ event: 'message', data: 'ok', lastEventId: '' }]);
    expect(retries).toEqual([250]);
  });

  it('keeps the last id across messages; an id with NUL is ignored; an id alone moves it without a message', () => {
    const { messages, lastId } = parse(['id: 1\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid: 9\n\n']);
    expect(messages.map((m) => m.lastEventId)).toEqual(['1', '1', '1']);
    expect(lastId).toBe('9');
  });

  it('drops an unfinished message at the end of the stream, and forgets a partial one on reset', () => {
    expect(parse(['id: 5\ndata: half']).messages).toEqual([]);
    const messages: StreamMessage[] = [];
    const parser = new EventStreamParser({ message: (message) => messages.push(message) }, 'start');
    parser.feed('id: 5\nevent: created\ndata: half');
    parser.reset();
    expect(parser.lastId).toBe('start'); // the id of a message never finished does not count
    parser.feed('data: whole\n\n');
    expect(messages).toEqual([{ event: 'message', data: 'whole', lastEventId: 'start' }]);
  });
});
