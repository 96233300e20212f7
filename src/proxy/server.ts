// The validating proxy: one server in front of the gateway's and the order router's hosts (and the
// merchant's webhook), routing each request by the contract's paths, forwarding the exact bytes
// both ways, checking each exchange and keeping what the run covered. This is its shell: the
// options checked (options.ts), the parts an exchange goes through (exchange.ts: the ledger, the
// upstream calls, the count in flight), the server's bounds, and a stop with a grace. Bounds as the
// sandbox's: request bodies, headers, the time a client and the upstream may take (docs/decisions.md,
// D-87 to D-92, D-111).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Report } from '../report/model.js';
import { handleRequest, type ProxyParts } from './exchange.js';
import { HarWriter } from './harWriter.js';
import { InFlight } from './inFlight.js';
import { ExchangeLedger } from './ledger.js';
import { DEFAULT_PROXY_PORT, type ProxyOptions, proxySettings } from './options.js';
import { Upstream } from './upstream.js';

export {
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type ProxyOptions,
} from './options.js';

const HEADERS_TIMEOUT_MS = 10_000;

export interface RunningProxy {
  readonly url: string;
  /** Resolves once `maxExchanges` exchanges have ended. */
  readonly finished: Promise<void>;
  /** The run so far: one case per exchange, and the coverage per operation. */
  report(): Report;
  /** How many exchanges are in flight: received, not yet answered and recorded. */
  inFlight(): number;
  /** Ends a stop()'s grace now: the exchanges still in flight are cut off (a second Ctrl-C). */
  endGrace(): void;
  /**
   * Stops listening, waits up to the grace for the exchanges in flight (each answered and recorded as
   * it ends), cuts off those still open (a 503 problem, recorded as the problem `shutdown`), then ends
   * the recording.
   */
  stop(): Promise<void>;
}

/** A server with the bounds of its waits: the headers within 10 s, the whole request within the request time. */
function boundedServer(requestTimeoutMs: number, handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(
    { noDelay: true, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 3))) },
    handle,
  );
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listens on the address, or rejects with the server's error (EADDRINUSE, EACCES). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The address a server listens at, as a URL. */
function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Stops listening; lets the exchanges in flight end within the grace, cuts off the rest; ends the recording. */
async function shutDown(server: Server, parts: ProxyParts): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await parts.inFlight.settledOrAfter(parts.settings.graceMs);
  parts.inFlight.cutAll();
  server.closeAllConnections();
  await closed;
  parts.upstream.close();
  parts.ledger.close();
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const settings = proxySettings(options);
  const upstream = new Upstream({ maxAnswerBytes: settings.maxAnswerBytes, timeoutMs: settings.upstreamTimeoutMs });
  const har = options.harFile === undefined ? undefined : new HarWriter(options.harFile);
  const ledger = new ExchangeLedger({ har, maxExchanges: options.maxExchanges, onLog: options.onLog });
  const parts: ProxyParts = { settings, ledger, upstream, inFlight: new InFlight<IncomingMessage>() };
  const server = boundedServer(settings.requestTimeoutMs, (req, res) => handleRequest(parts, req, res));
  await listen(server, options.port ?? DEFAULT_PROXY_PORT, options.host ?? '127.0.0.1');
  let stopping: Promise<void> | undefined;
  return {
    url: urlOf(server),
    finished: ledger.finished,
    report: () => ledger.report(),
    inFlight: () => parts.inFlight.size,
    endGrace: () => parts.inFlight.endGrace(),
    stop() {
      stopping ??= shutDown(server, parts);
      return stopping;
    },
  };
}
