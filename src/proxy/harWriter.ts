// The proxy's recording: HAR 1.2, one entry per exchange, written as exchanges end (the file is
// whole once the proxy stops). Only what the contract marks public is written in clear; every other
// value is replaced by its marker, and each entry is scrubbed of the exchange's secrets last
// (redact.ts, docs/decisions.md D-88, D-102 to D-104).
import { closeSync, openSync, writeSync } from 'node:fs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../packageInfo.js';
import { type MessageView, redactBody, redactHeader, redactUrl, type Secrets } from './redact.js';

/** One side of an exchange as it was sent, before redaction. */
export interface RecordedMessage {
  headers: Record<string, string | string[] | undefined>;
  /** The body's text, or null when it was not UTF-8 text (only its size is recorded). */
  text: string | null;
  parsed: { ok: true; value: unknown } | { ok: false };
  size: number;
  /** The proxy's own problem (RFC 9457), not the service's payload. */
  ownProblem?: boolean | undefined;
}

export interface RecordedExchange {
  started: number;
  durationMs: number;
  method: string;
  url: string;
  /** The operation the exchange was routed to, and its path template (null for the webhook's configured path). */
  operationId: string | null;
  template: string | null;
  request: RecordedMessage;
  response: RecordedMessage & { status: number; statusText: string };
  secrets: Secrets;
  /** The exchange's verdict, as a comment a reader of the file sees. */
  comment: string;
}

const pairs = (headers: RecordedMessage['headers']) =>
  Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => redactHeader(name, v)),
  );

const mimeOf = (headers: RecordedMessage['headers']) => {
  const type = headers['content-type'];
  const value = Array.isArray(type) ? type[0] : type;
  return value === undefined ? 'application/octet-stream' : redactHeader('content-type', value).value;
};

const view = (
  x: RecordedExchange,
  message: RecordedMessage,
  direction: MessageView['direction'],
  text: string,
): MessageView => {
  const type = message.headers['content-type'];
  return {
    operationId: x.operationId,
    direction,
    contentType: Array.isArray(type) ? type[0] : type,
    text,
    parsed: message.parsed,
    ownProblem: message.ownProblem,
  };
};

/** The HAR entry of an exchange, masked by allow-list (its secrets are scrubbed from its text by `harEntryText`). */
export function harEntry(x: RecordedExchange): object {
  const requestText =
    x.request.text === null ? null : redactBody(view(x, x.request, 'request', x.request.text), x.secrets);
  const responseText =
    x.response.text === null ? null : redactBody(view(x, x.response, 'response', x.response.text), x.secrets);
  const url = redactUrl(x.url, x.operationId, x.template);
  const query = URL.canParse(url) ? [...new URL(url).searchParams].map(([name, value]) => ({ name, value })) : [];
  return {
    startedDateTime: new Date(x.started).toISOString(),
    time: x.durationMs,
    request: {
      method: x.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.request.headers),
      queryString: query,
      ...(requestText === null ? {} : { postData: { mimeType: mimeOf(x.request.headers), text: requestText } }),
      headersSize: -1,
      bodySize: x.request.size,
    },
    response: {
      status: x.response.status,
      statusText: x.response.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.response.headers),
      content: {
        size: x.response.size,
        mimeType: mimeOf(x.response.headers),
        ...(responseText === null ? {} : { text: responseText }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: x.response.size,
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    comment: x.comment,
  };
}

/** The text of an exchange's HAR entry: masked, then every spelling of its secrets scrubbed. */
export const harEntryText = (x: RecordedExchange): string => x.secrets.scrub(JSON.stringify(harEntry(x)));

/** A HAR file written entry by entry. */
export class HarWriter {
  private readonly fd: number;
  private count = 0;
  private closed = false;
  constructor(file: string) {
    this.fd = openSync(file, 'w', 0o600);
    writeSync(
      this.fd,
      `{"log":{"version":"1.2","creator":{"name":${JSON.stringify(PACKAGE_NAME)},"version":${JSON.stringify(PACKAGE_VERSION)}},"entries":[\n`,
    );
  }
  write(exchange: RecordedExchange): void {
    if (this.closed) return;
    writeSync(this.fd, `${this.count++ === 0 ? '' : ',\n'}${harEntryText(exchange)}`);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    writeSync(this.fd, '\n]}}\n');
    closeSync(this.fd);
  }
}
