// Small HTTP helpers of the sandbox's server: sending JSON (the body is read by src/http/readBody.js).

/** Header values are ASCII without control characters: everything else is escaped. @param {string} text */
export function headerSafe(text) {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 4000);
}

/**
 * @param {import('node:http').ServerResponse} res @param {number} status @param {string} text
 * @param {Record<string, string>} [headers]
 */
export function sendText(res, status, text, headers = {}) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value @param {Record<string, string>} [headers] */
export function sendJson(res, status, value, headers) {
  sendText(res, status, JSON.stringify(value), headers);
}

/** A control API error body. @param {string} code @param {string} message @param {Record<string, unknown>} [extra] */
export const problem = (code, message, extra = {}) => ({ error: { code, message, ...extra } });
