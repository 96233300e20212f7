// Reading a control call and answering it: who may call (trust.ts), the route by path and method,
// the path parameters decoded, the query, the body (JSON, or on the bank page the form its
// bankForm declares), then the route's answer as JSON. Errors are {error: {code, message}} with an
// HTTP status; nothing a caller sends crashes it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../../http/readBody.js';
import { parseJson } from '../../json/parse.js';
import { problem, sendJson } from '../http.js';
import { type ControlRoute, matchRoute } from './routes.js';
import { createControlTrust } from './trust.js';

/** Control bodies are small. */
const CONTROL_MAX_BYTES = 64 * 1024;

/** Answers one call under /sandbox. */
export type ControlHandler = (req: IncomingMessage, res: ServerResponse, pathname: string, search: string) => void;

/** The media type of a content-type header, lower case, without its parameters. */
const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Answers the control calls of a sandbox bound to `boundHost` (its `host` option). */
export function createControlHandler(routes: readonly ControlRoute[], boundHost: string): ControlHandler {
  const trust = createControlTrust(boundHost);
  return function handle(req, res, pathname, search) {
    const refused = trust(req);
    if (refused) {
      req.resume();
      return sendJson(res, 403, refused);
    }
    const match = matchRoute(routes, req.method, pathname);
    if (!match.found) {
      if (match.methods.length === 0)
        return sendJson(res, 404, problem('not-found', 'No control call at this path: GET /sandbox lists them.'));
      return sendJson(res, 405, problem('method-not-allowed', `Use ${match.methods.join(' or ')}.`), {
        allow: match.methods.join(', '),
      });
    }
    const { route } = match;
    let params: string[];
    try {
      params = match.values.map((p) => decodeURIComponent(p));
    } catch {
      return sendJson(res, 400, problem('invalid-request', 'The path is not valid percent-encoding.'));
    }
    const query: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(search)) query[k] = v;
    readBody(req, CONTROL_MAX_BYTES, async (buffer, failure) => {
      if (failure === 'aborted') return;
      if (!buffer)
        return sendJson(res, 413, problem('too-large', `Control bodies are at most ${CONTROL_MAX_BYTES} bytes.`), {
          connection: 'close',
        });
      let body: unknown = {};
      if (buffer.length > 0) {
        // JSON only: a browser sends JSON to another origin only after a preflight the sandbox
        // never answers, while a form or text/plain goes without one. The bank page also takes the
        // form its bankForm declares (a browser's form from another origin carries its Origin).
        const type = mediaType(req.headers['content-type']);
        if (type === 'application/x-www-form-urlencoded' && route.form)
          body = Object.fromEntries(new URLSearchParams(buffer.toString('utf8')));
        else if (type !== 'application/json')
          return sendJson(
            res,
            415,
            problem(
              'unsupported-media-type',
              `Control bodies are JSON: send content-type: application/json (curl: -H 'content-type: application/json')${route.form ? ', or the form of the bankForm' : ''}.`,
            ),
          );
        else {
          const parsed = parseJson(buffer);
          if (!parsed.ok)
            return sendJson(res, 400, problem('invalid-json', `The body is not JSON: ${parsed.message}.`));
          body = parsed.value;
        }
      }
      try {
        const answer = await route.run(params, query, body);
        sendJson(res, answer.status, answer.body);
      } catch {
        sendJson(res, 500, problem('internal', 'The sandbox failed unexpectedly; this is a bug of the sandbox.'));
      }
    });
  };
}
