/** Prism log levels the launcher accepts (`silent` runs Prism at `error`). */
export type MockLogLevel = 'silent' | 'error' | 'warn' | 'info';

export interface StartedServer {
  /** `http://host:port` */
  url: string;
  stop(): Promise<void>;
}

/** Starts Prism on the bundled contract (generated/openapi.yaml) and resolves once it listens. */
export declare function startPrism(options?: { host?: string; port?: number; log?: MockLogLevel; document?: string; onLog?: (line: string) => void }): Promise<StartedServer & {
  /** Settles when Prism exits, for any reason. */
  exited: Promise<{ code: number | null; signal: string | null }>;
}>;

/** Serves the reference docs page (`/`), the bundled contract (`/openapi.yaml`, `/openapi.json`) and `/result-codes.md`. */
export declare function startDocs(options?: { host?: string; port?: number }): Promise<StartedServer>;

export interface MockGateway {
  /** Where Prism serves the six operations (gateway and router paths on one port). */
  mockUrl: string;
  /** Where the reference docs are served. */
  docsUrl: string;
  /** Settles only if Prism exits on its own (not through `stop()`). */
  unexpectedExit: Promise<{ code: number | null; signal: string | null }>;
  /** Stops Prism and the docs server. */
  stop(): Promise<void>;
}

/**
 * Starts the mock (Prism, on `port`, 1 to 65535) and the docs (on `docsPort`, default `port + 1`;
 * 0 picks a free port), both on `host` (default 127.0.0.1).
 */
export declare function startMockGateway(options?: { host?: string; port?: number; docsPort?: number; log?: MockLogLevel; onLog?: (line: string) => void }): Promise<MockGateway>;
