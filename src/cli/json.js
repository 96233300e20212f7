// Parsing JSON from users without ever echoing it: Node's own JSON.parse messages quote the input,
// which could be a card number.

/**
 * @param {string} text
 * @returns {{ ok: true, value: unknown } | { ok: false, message: string }}
 */
export function parseJson(text) {
  if (text.trim() === '') return { ok: false, message: 'the input is empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split('\n').length;
      const column = Number(position) - before.lastIndexOf('\n');
      return { ok: false, message: `malformed JSON at line ${line}, column ${column}` };
    }
    return { ok: false, message: 'malformed JSON (it ends too early or holds an invalid character)' };
  }
}

/** Reads a whole stream as UTF-8 text. @param {NodeJS.ReadableStream} stream */
export async function readStream(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
