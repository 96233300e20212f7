// The proxy's recording: HAR 1.2, one entry per exchange, written as exchanges end (the file is
// whole once the proxy stops), every sensitive value replaced by its marker (redact.ts, D-88).
import { closeSync, openSync, writeSync } from 'node:fs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../packageInfo.js';
import { redactBodyText, redactHeader, redactUrl, type Secrets } from './redact.js';

/** One side of an exchange as it was sent, before redaction. */
export interface RecordedMessage {
  headers: Record<string, string | string[] | undefined>;
  /** The body's text, or null when it was not UTF-8 text (only its size is recorded). */
  text: string | null;
  parsed: { ok: true; value: unknown } | { ok: false };
  size: number;
}

export interface RecordedExchange {
  started: number;
  durationMs: number;
  method: string;
  url: string;
  request: RecordedMessage;
  response: RecordedMessage & { status: number; statusText: string };
  secrets: Secrets;
  /** The exchange's verdict, as a comment a reader of the file sees. */
  comment: string;
}

const pairs = (headers: RecordedMessage['headers'], secrets: Secrets) =>
  Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: redactHeader(name, v, secrets) })),
  );

const mimeOf = (headers: RecordedMessage['headers']) => {
  const type = headers['content-type'];
  return (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream';
};

/** The HAR entry of an exchange, redacted. Bodies are redacted before the URL and headers, so that their secrets are known there too. */
export function harEntry(x: RecordedExchange): object {
  const requestText = x.request.text === null ? null : redactBodyText(x.request.text, x.request.parsed, x.secrets);
  const responseText = x.response.text === null ? null : redactBodyText(x.response.text, x.response.parsed, x.secrets);
  const url = redactUrl(x.url, x.secrets);
  const query = URL.canParse(url) ? [...new URL(url).searchParams].map(([name, value]) => ({ name, value })) : [];
  return {
    startedDateTime: new Date(x.started).toISOString(),
    time: x.durationMs,
    request: {
      method: x.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.request.headers, x.secrets),
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
      headers: pairs(x.response.headers, x.secrets),
      content: { size: x.response.size, mimeType: mimeOf(x.response.headers), ...(responseText === null ? {} : { text: responseText }) },
      redirectURL: '',
      headersSize: -1,
      bodySize: x.response.size,
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    comment: x.comment,
  };
}

/** A HAR file written entry by entry. */
export class HarWriter {
  private readonly fd: number;
  private count = 0;
  private closed = false;
  constructor(file: string) {
    this.fd = openSync(file, 'w', 0o600);
    writeSync(this.fd, `{"log":{"version":"1.2","creator":{"name":${JSON.stringify(PACKAGE_NAME)},"version":${JSON.stringify(PACKAGE_VERSION)}},"entries":[\n`);
  }
  write(exchange: RecordedExchange): void {
    if (this.closed) return;
    writeSync(this.fd, `${this.count++ === 0 ? '' : ',\n'}${JSON.stringify(harEntry(exchange))}`);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    writeSync(this.fd, '\n]}}\n');
    closeSync(this.fd);
  }
}
