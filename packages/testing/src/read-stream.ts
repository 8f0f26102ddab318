import { expect } from 'vitest';

/**
 * Reads a streamed body until the text read is `expected`, failing the test on any other text
 * or on the end of the stream: for checking that a chunk arrives as it is sent.
 *
 * @example
 * ```ts
 * const response = await fetch(`${baseUrl}/issues/events`, { headers: { accept: 'text/event-stream' } });
 * await readStreamText(response.body!.getReader(), ': connected\n\n');
 * ```
 */
export async function readStreamText(reader: ReadableStreamDefaultReader<Uint8Array>, expected: string): Promise<void> {
  const decoder = new TextDecoder();
  let text = '';
  while (text.length < expected.length) {
    const { done, value } = await reader.read();
    expect(done, `the stream ended after ${JSON.stringify(text)}`).toBe(false);
    text += decoder.decode(value, { stream: true });
    expect(expected.startsWith(text), `read ${JSON.stringify(text.slice(0, 80))}`).toBe(true);
  }
}

/**
 * Reads a streamed body to its end, answering how many bytes were left; rejects when the
 * response was cut short (reset) rather than ended.
 *
 * @example
 * ```ts
 * await closeServer(server);
 * expect(await readStreamToEnd(reader)).toBe(0); // ended, nothing more sent
 * ```
 */
export async function readStreamToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<number> {
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) size += read.value.byteLength;
  return size;
}
