// Sending JSON answers from the sandbox's server (request bodies are read by src/http/readBody.ts).
import type { ServerResponse } from 'node:http';

/** A control API or server error body. Never a value the caller sent. */
export interface Problem {
  error: { code: string; message: string; [detail: string]: unknown };
}

/** Header values are ASCII without control characters: everything else is escaped. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 4000);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>): void {
  sendText(res, status, JSON.stringify(value), headers);
}

/** A control API error body. */
export const problem = (code: string, message: string, extra: Record<string, unknown> = {}): Problem => ({
  error: { code, message, ...extra },
});
