// Payload records from recorded traffic: a HAR 1.2 file (a browser's or a proxy's export). Each
// entry posted to a path of the contract (on any host, under any base path) gives the request, with
// the query and path parameters of its URL, and the response when it has a JSON body; the webhook
// is recognised by its envelope, or by the path `webhookPath` names. Other entries are skipped,
// named by method, host and the parts of the path that read like names (docs/decisions.md, D-50).
import { operations } from '../../generated/operations.js';
import { fromBase64 } from '../encoding/bytes.js';
import { matchOperation } from '../http/route.js';
import { decodeUtf8 } from '../json/parse.js';
import { readsLikeName } from '../json/pointer.js';
import { arrayItemOffsets, lineCounter, pointerOffset } from '../json/position.js';
import type { PayloadRecord } from '../validation/validateMany.js';
import { parseBounded } from './limits.js';

/** The few fields of HAR 1.2 read here; everything is checked before use. */
interface HarBody {
  mimeType?: unknown;
  text?: unknown;
  encoding?: unknown;
}
interface HarEntry {
  request?: { method?: unknown; url?: unknown; postData?: HarBody };
  response?: { status?: unknown; content?: HarBody };
}

export interface HarOptions {
  /** The name of the file in reports. */
  file: string;
  /** The path of the merchant's webhook address: entries posted there are token status notifications. */
  webhookPath?: string | undefined;
}

const WEBHOOK = 'notifyTokenStatus';

const splitPath = (pathname: string) => pathname.split('/').filter(Boolean);

/** Whether the path ends with the webhook's path (any base path before it), segment by segment as sent. */
function endsWith(path: string[], tail: string[]): boolean {
  const offset = path.length - tail.length;
  return offset >= 0 && tail.every((segment, i) => path[offset + i] === segment);
}

/** The words of the contract's paths, shown as they are. */
const PATH_WORDS: ReadonlySet<string> = new Set(
  operations.flatMap((o) => (o.path === null ? [] : splitPath(o.path).filter((s) => !s.startsWith('{')))),
);

/**
 * A segment of a recorded path as a report shows it: a word of the contract's paths, or a word in
 * lower case (`assets`, `app.js`, `collect`, `v2`). Anything else may be an id or a token, even one
 * of letters alone, and stands as `<...>`.
 */
const shownSegment = (s: string) =>
  PATH_WORDS.has(s) || (readsLikeName(s) && /^[a-z][a-z._-]{0,31}[0-9]{0,3}$/.test(s)) ? s : '<...>';

/**
 * A URL as a skipped entry shows it: its host name when every label reads like a name (else
 * `<host>`), and its path with the segments shownSegment hides. Never the credentials, the port,
 * the query or the fragment, nor a header: they may carry a card number, a token or a signature.
 */
function shownUrl(url: URL): string {
  const host =
    url.hostname.length <= 100 && url.hostname.split('.').every((label) => readsLikeName(label))
      ? url.hostname
      : '<host>';
  const path = splitPath(url.pathname).slice(0, 12).map(shownSegment).join('/');
  return `${host}/${path}`;
}

/** The methods a report names; any other is "a request". */
const METHODS: ReadonlySet<string> = new Set([
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** The text of a recorded body (decoded from base64 when the recording says so), or null when there is none. */
function bodyText(body: HarBody | undefined): string | null {
  if (!body || typeof body.text !== 'string' || body.text === '') return null;
  if (body.encoding === 'base64') {
    const bytes = fromBase64(body.text);
    return (bytes && decodeUtf8(bytes)) ?? '\ufffd';
  }
  return body.text;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a request body is a token status notification: `{ head: {...}, body: { tokenInfo: {...} } }`. */
function isNotification(value: unknown): boolean {
  return isObject(value) && isObject(value.head) && isObject(value.body) && isObject(value.body.tokenInfo);
}

/** The records of a HAR text: per matching entry its request and, with a JSON body, its response; others skipped. */
export function* harRecords(text: string, options: HarOptions): Generator<PayloadRecord> {
  const { file } = options;
  const parsed = parseBounded(text, 'The input');
  if (!parsed.ok) {
    yield { name: file, source: { file }, unreadable: { rule: parsed.rule, message: parsed.message } };
    return;
  }
  const log = isObject(parsed.value) ? parsed.value.log : undefined;
  const entries = isObject(log) && Array.isArray(log.entries) ? (log.entries as unknown[]) : null;
  if (!entries) {
    yield {
      name: file,
      source: { file },
      unreadable: { rule: 'har', message: 'The input is not a HAR file: it has no "log.entries" list.' },
    };
    return;
  }
  const webhookPath = options.webhookPath === undefined ? null : splitPath(options.webhookPath);
  const offsets = arrayItemOffsets(text, '/log/entries');
  const lineAt = lineCounter(text);
  /** The line of a member of entry `i` in the HAR file. */
  const lineOf = (i: number, pointer: string) => {
    const start = offsets[i];
    return start === undefined ? 1 : lineAt(pointerOffset(text, pointer, start));
  };

  for (let i = 0; i < entries.length; i++) {
    const name = `${file} entry ${i + 1}`;
    const entry = (isObject(entries[i]) ? entries[i] : {}) as HarEntry;
    const request = isObject(entry.request) ? entry.request : undefined;
    const url = typeof request?.url === 'string' && URL.canParse(request.url) ? new URL(request.url) : null;
    if (!url) {
      yield { name, skipped: 'the entry has no URL' };
      continue;
    }
    const method =
      typeof request?.method === 'string' && METHODS.has(request.method.toUpperCase())
        ? request.method.toUpperCase()
        : 'a request';
    const path = splitPath(url.pathname);
    // The contract's one path matching (D-112); a recording may carry any base path before the operation's.
    const match = matchOperation(url.pathname, { anyBasePath: true });
    if (match?.kind === 'unsafe') {
      yield {
        name,
        operationId: match.operation.operationId,
        direction: 'request',
        unreadable: { rule: 'safePathParameter', message: match.message },
      };
      continue;
    }
    let operationId: string | undefined = match?.operation.operationId;
    const pathParams = match && Object.keys(match.path).length ? { ...match.path } : undefined;
    const requestText = bodyText(request?.postData);
    const parsedRequest = requestText === null ? null : parseBounded(requestText, 'The request body');
    if (!operationId) {
      const atWebhookPath = webhookPath !== null && webhookPath.length > 0 && endsWith(path, webhookPath);
      const looksLikeOne = webhookPath === null && parsedRequest?.ok === true && isNotification(parsedRequest.value);
      if (method === 'POST' && (atWebhookPath || looksLikeOne)) operationId = WEBHOOK;
    }
    if (!operationId) {
      yield { name, skipped: `${method} ${shownUrl(url)}: no operation of the contract at this address` };
      continue;
    }
    if (method !== 'POST') {
      yield { name, skipped: `${method} ${shownUrl(url)}: not a POST, the method of ${operationId}` };
      continue;
    }
    const base = { name, operationId, source: { file, line: lineOf(i, '/request/postData/text') } };
    const params = operationId === WEBHOOK ? {} : { query: url.search, ...(pathParams ? { path: pathParams } : {}) };
    if (parsedRequest === null)
      yield {
        ...base,
        direction: 'request',
        unreadable: { rule: 'readable', message: 'The entry holds no request body.' },
      };
    else if (!parsedRequest.ok)
      yield { ...base, direction: 'request', unreadable: { rule: parsedRequest.rule, message: parsedRequest.message } };
    else yield { ...base, direction: 'request', payload: parsedRequest.value, ...params };

    const content = isObject(entry.response) ? (entry.response.content as HarBody | undefined) : undefined;
    const responseText = bodyText(isObject(content) ? content : undefined);
    if (responseText === null) continue;
    const parsedResponse = parseBounded(responseText, 'The response body');
    const declaredJson = typeof content?.mimeType === 'string' && /json/i.test(content.mimeType);
    // A response is judged when it is JSON, or says it is, or opens as JSON and passes a bound;
    // other answers (HTML error pages) are not payloads.
    if (!parsedResponse.ok && !declaredJson && !(parsedResponse.bound && /^\s*[[{]/.test(responseText.slice(0, 64))))
      continue;
    const response = {
      name,
      operationId,
      direction: 'response',
      source: { file, line: lineOf(i, '/response/content/text') },
    };
    if (!parsedResponse.ok)
      yield { ...response, unreadable: { rule: parsedResponse.rule, message: parsedResponse.message } };
    else yield { ...response, payload: parsedResponse.value };
  }
}
