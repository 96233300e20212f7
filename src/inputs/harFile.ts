// The records of a HAR file on disk (Node): the file read within a size limit, then harRecords().
import { decodeUtf8 } from '../json/parse.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { harRecords } from './har.js';
import { readFileBounded } from './read.js';

/** The records of a HAR file, read within `maxBytes` (the whole file is parsed at once). */
export function* harFileRecords(file: string, options: { maxBytes?: number | undefined; webhookPath?: string | undefined } = {}): Generator<PayloadRecord> {
  const read = readFileBounded(file, options.maxBytes ?? 16 * 1024 * 1024);
  if (!read.ok) {
    yield { name: file, source: { file }, unreadable: { rule: read.rule, message: read.message } };
    return;
  }
  const text = decodeUtf8(read.bytes);
  if (text === null) {
    yield { name: file, source: { file }, unreadable: { rule: 'json', message: 'The input is not JSON: the input is not valid UTF-8 text.' } };
    return;
  }
  yield* harRecords(text, { file, webhookPath: options.webhookPath });
}
