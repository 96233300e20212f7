// The merchant's handler of an accepted notification, run within handlerTimeoutMs (docs/decisions.md,
// D-105): past it, its signal aborts and the receiver stops waiting; how it ends later is still known,
// so that its claim is completed or released then.
import type { TokenStatusHandler } from './adapters.js';
import type { TokenStatusEvent } from './notification.js';

/** How a handler ended: `late` settles when a handler that outran its time limit ends (true: it succeeded). */
export type HandlerEnd = { ended: 'succeeded' } | { ended: 'failed' } | { ended: 'timeout'; late: Promise<boolean> };

/** Runs the handler with its time limit: past it, its signal aborts and the wait ends. */
export async function runHandler(
  onEvent: TokenStatusHandler,
  event: TokenStatusEvent,
  timeoutMs: number,
): Promise<HandlerEnd> {
  const controller = new AbortController();
  let run: Promise<boolean>;
  try {
    run = Promise.resolve(onEvent(event, { signal: controller.signal })).then(
      () => true,
      () => false,
    );
  } catch {
    return { ended: 'failed' };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const first = await Promise.race([run, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    controller.abort(new Error('The handler outran handlerTimeoutMs.'));
    return { ended: 'timeout', late: run };
  }
  return { ended: first ? 'succeeded' : 'failed' };
}
