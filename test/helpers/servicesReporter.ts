// A vitest reporter that says once, at the end of the run, why the tests of the replay stores on
// Redis and PostgreSQL were skipped and how to start the servers they need (test/services/run.sh).
// Listed after the default reporter in vitest.config.ts, so its note follows the summary.
import type { Reporter, TestModule } from 'vitest/node';
import { skippedEngine, startCommand } from './services.js';

const NAMES = { redis: 'Redis', postgres: 'PostgreSQL' } as const;
const PACKAGES = { redis: 'redis-server', postgres: 'postgresql' } as const;

/** The note for the tests skipped for want of a server (by their full names), or undefined when there are none. */
export function skippedServicesNote(skippedTests: readonly string[]): string | undefined {
  const counts = new Map<'redis' | 'postgres', number>();
  for (const name of skippedTests) {
    const engine = skippedEngine(name);
    if (engine) counts.set(engine, (counts.get(engine) ?? 0) + 1);
  }
  if (counts.size === 0) return undefined;
  const engines = [...counts.keys()].sort();
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const variables = engines.map((e) => `TEST_${e === 'redis' ? 'REDIS' : 'POSTGRES'}_URL`).join(' and ');
  return [
    '',
    `${total} test(s) skipped: no ${engines.map((e) => NAMES[e]).join(' or ')} server to test the replay stores on (${variables} not set).`,
    `Start ${engines.length > 1 ? 'them' : 'it'} on a free port of 127.0.0.1 (Debian's ${engines.map((e) => PACKAGES[e]).join(' and ')}), then run the tests again in the same shell:`,
    ...engines.map((e) => `  ${startCommand(e)}`),
    `Stop ${engines.length > 1 ? 'them' : 'it'} with: ${engines.map((e) => `test/services/run.sh stop ${e} /tmp/gc-${e}`).join('; ')}`,
    '',
  ].join('\n');
}

export default class SkippedServicesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) if (test.result().state === 'skipped') skipped.push(test.fullName);
    }
    const note = skippedServicesNote(skipped);
    if (note) process.stdout.write(`${note}\n`);
  }
}
