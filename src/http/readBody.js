// Reading a request body on node:http within a size limit, shared by the servers of the package
// (the webhook receiver's adapter, the sandbox). Events rather than async iteration: leaving a
// `for await` loop early destroys the socket before an answer can be written.

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
  // A client that goes away before the end of its body.
  req.on('close', () => finish(null, 'aborted'));
}
