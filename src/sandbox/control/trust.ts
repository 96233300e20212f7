// What the control API trusts (docs/decisions.md, D-68): a caller on this machine that addresses the
// sandbox by the address it is bound to. The control API has no authentication: it resets the
// state, arms faults and completes payments for whoever asks. A web page on any site can make a
// browser send requests to 127.0.0.1 (a form, an image, fetch without a preflight), or reach it
// under a DNS name rebound to 127.0.0.1; so a request with an Origin other than the sandbox's own,
// one a browser marks as coming from another site, or one whose Host is not the sandbox's address
// is refused. A tool on the machine (curl, a test, the typed client's fetch) sends none of these.
import type { IncomingMessage } from 'node:http';
import { type Problem, problem } from '../http.js';

/** The names of this machine's loopback interface, as a Host header spells them. */
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
/** Addresses that bind every interface: no one name to add, so only the loopback names are trusted. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

/** Why the control API refuses a request, or undefined when it comes from a trusted caller. */
export type ControlTrust = (req: IncomingMessage) => Problem | undefined;

/** The trust of a sandbox bound to `boundHost` (its `host` option): its loopback names and that host, at the port a request arrived on. */
export function createControlTrust(boundHost: string): ControlTrust {
  const names = new Set(LOOPBACK);
  const bound = boundHost.toLowerCase();
  if (!WILDCARD.has(bound)) names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  let port = -1;
  let hosts = new Set<string>();
  let origins = new Set<string>();
  return (req) => {
    // The port the request arrived on is the sandbox's own (one server, one port).
    const localPort = req.socket.localPort ?? 0;
    if (localPort !== port) {
      port = localPort;
      hosts = new Set([...names].map((name) => `${name}:${port}`));
      origins = new Set([...hosts].map((host) => `http://${host}`));
    }
    const host = req.headers.host;
    if (host === undefined || !hosts.has(host.toLowerCase()))
      return problem(
        'foreign-host',
        `The control API answers only requests addressed to the sandbox itself (Host 127.0.0.1:${port}, localhost:${port} or [::1]:${port}); this request names another host, as a web page reaching the sandbox through a DNS name of its own would.`,
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return problem(
        'foreign-origin',
        "The control API does not answer web pages of other origins (this request has an Origin other than the sandbox's own): it has no authentication, and a page could reset it, arm faults or complete payments.",
      );
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      return problem(
        'foreign-origin',
        'The control API does not answer web pages of other sites (a browser marked this request Sec-Fetch-Site other than same-origin).',
      );
    return undefined;
  };
}
