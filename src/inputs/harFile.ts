// The records of a HAR file on disk or a pipe (Node): read within a size and a time limit, then harRecords().
import { decodeUtf8 } from '../json/parse.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { harRecords } from './har.js';
import { DEFAULT_WAIT_MS } from './limits.js';
import { readInputBounded } from './read.js';

/** The records of a HAR file (or a pipe), read within `maxBytes` (the whole file is parsed at once), a pipe waited for at most `waitMs` at a time. */
export async function* harFileRecords(
  file: string,
  options: { maxBytes?: number | undefined; webhookPath?: string | undefined; waitMs?: number | undefined } = {},
): AsyncGenerator<PayloadRecord> {
  const read = await readInputBounded(file, options.maxBytes ?? 16 * 1024 * 1024, options.waitMs ?? DEFAULT_WAIT_MS);
  if (!read.ok) {
    yield { name: file, source: { file }, unreadable: { rule: read.rule, message: read.message } };
    return;
  }
  const text = decodeUtf8(read.bytes);
  if (text === null) {
    yield {
      name: file,
      source: { file },
      unreadable: { rule: 'json', message: 'The input is not JSON: the input is not valid UTF-8 text.' },
    };
    return;
  }
  yield* harRecords(text, { file, webhookPath: options.webhookPath });
}
