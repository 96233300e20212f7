// Without Redis or PostgreSQL the replay stores' tests are skipped, and the run says why once, at its
// end, with the commands that start the servers (helpers/servicesReporter.ts, in vitest.config.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { collectOutput } from '../helpers/cli.js';
import { skippedTitle } from '../helpers/services.js';
import { skippedServicesNote } from '../helpers/servicesReporter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

describe('the note on skipped store tests', () => {
  it('counts the tests skipped per missing server and gives the commands that start and stop them', () => {
    const redis = `${skippedTitle('Redis (SET NX PX)', 'redis')} > claims once`;
    const postgres = `${skippedTitle('PostgreSQL', 'postgres')} > claims once`;
    expect(skippedServicesNote(['other suite > a test', 'x (skipped: because) > y'])).toBeUndefined();
    const note = skippedServicesNote([redis, redis, 'other > test']);
    expect(note).toContain('2 test(s) skipped: no Redis server to test the replay stores on (TEST_REDIS_URL not set).');
    expect(note).toContain('  eval "$(test/services/run.sh start redis /tmp/gc-redis)"');
    expect(note).not.toContain('postgres');
    const both = skippedServicesNote([redis, postgres, postgres]);
    expect(both).toContain('3 test(s) skipped: no PostgreSQL or Redis server');
    expect(both).toContain('  eval "$(test/services/run.sh start postgres /tmp/gc-postgres)"');
    expect(both).toContain(
      'test/services/run.sh stop postgres /tmp/gc-postgres; test/services/run.sh stop redis /tmp/gc-redis',
    );
  });

  it('is printed once, after the summary, by a run without the servers; and not when no store test was skipped', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
    for (const name of ['CI', 'TEST_REDIS_URL', 'TEST_POSTGRES_URL', 'TEST_REDIS_DIR', 'TEST_POSTGRES_DIR'])
      delete env[name];
    const run = async (file: string) => {
      const child = spawn(process.execPath, [VITEST, 'run', file], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      const result = await collectOutput(child);
      return { status: result.status, out: stripVTControlCharacters(result.stdout) };
    };
    const stores = await run('test/webhook/stores.test.ts');
    expect(stores.status).toBe(0);
    const notes = stores.out.match(/test\(s\) skipped: no PostgreSQL or Redis server/g) ?? [];
    expect(notes).toHaveLength(1);
    expect(stores.out.indexOf('test(s) skipped: no')).toBeGreaterThan(stores.out.indexOf('Test Files'));
    expect(stores.out).toContain('eval "$(test/services/run.sh start redis /tmp/gc-redis)"');
    const other = await run('test/package/layout.test.ts');
    expect(other.status).toBe(0);
    expect(other.out).not.toContain('test(s) skipped: no');
  }, 240_000);
});
