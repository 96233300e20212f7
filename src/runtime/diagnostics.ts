// Node's diagnostics_channel, taken from the runtime when it has one (Node, Bun, Deno, workerd with
// nodejs_compat) through `process.getBuiltinModule`, never imported: a web entry that traces still
// loads in a browser and on workerd without nodejs_compat, and there tracing is simply absent. The
// client's and the webhook receiver's channels are made here (docs/tracing.md).

/** What the package uses of a channel (Node's `Channel`), so that no declaration needs Node's types. */
export interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** What the package uses of a tracing channel (Node's `TracingChannel`). */
export interface TracingChannel {
  readonly start: Channel;
  readonly end: Channel;
  readonly asyncStart: Channel;
  readonly asyncEnd: Channel;
  readonly error: Channel;
  tracePromise<T>(fn: () => Promise<T>, context: object): Promise<T>;
}

/** What the package uses of the module. */
export interface DiagnosticsChannel {
  channel(name: string): Channel;
  tracingChannel(name: string): TracingChannel;
}

/** The runtime's diagnostics_channel, or undefined where there is none (a browser, workerd without nodejs_compat). */
export function diagnosticsChannel(): DiagnosticsChannel | undefined {
  try {
    return globalThis.process?.getBuiltinModule?.('node:diagnostics_channel');
  } catch {
    return undefined;
  }
}
