// Small HTTP helpers of the sandbox's server: reading a body within a size limit, and sending JSON.

/**
 * Reads the whole request body, or reports that it is larger than `maxBytes` (without keeping it).
 * @param {import('node:http').IncomingMessage} req @param {number} maxBytes
 * @param {(body: Buffer | null, problem?: 'too-large' | 'aborted') => void} done
 */
export function readBody(req, maxBytes, done) {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) {
    req.resume();
    done(null, 'too-large');
    return;
  }
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  let finished = false;
  const finish = (/** @type {Buffer | null} */ body, /** @type {'too-large' | 'aborted' | undefined} */ problem = undefined) => {
    if (finished) return;
    finished = true;
    done(body, problem);
  };
  req.on('data', (/** @type {Buffer} */ chunk) => {
    if (finished) return;
    size += chunk.length;
    if (size > maxBytes) {
      chunks.length = 0;
      finish(null, 'too-large');
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  req.on('error', () => finish(null, 'aborted'));
}

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
