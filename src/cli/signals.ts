// Long-running commands (the sandbox, the proxy) run until Ctrl-C or SIGTERM.

/** Resolves on the first SIGINT (Ctrl-C) or SIGTERM, or when `done` settles; its handlers are then removed. */
export function untilStopped(done?: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void done?.then(stop, stop);
  });
}
