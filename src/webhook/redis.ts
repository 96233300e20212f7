// `gateway-contract/webhook/redis`: the receiver's replay store on Redis, shared by every instance
// (docs/decisions.md, D-95, D-106). A key's value is its state and owner, `p:<owner>` in progress or
// `h:<owner>` handled, and Redis expires it (`PX`). Each call is one short script, atomic on the
// server: a claim sets the key if absent or answers the state that holds it; a completion and a
// release act only while the owner holds it in progress. Takes the merchant's connected client,
// node-redis (`redis`, v4 and later) or ioredis, typed by the methods it calls: neither package is
// needed to compile or load this entry.
import { type ClaimOutcome, checkClaim, checkComplete, checkKey, type ReplayStore } from './replayStore.js';

/** node-redis (`createClient()` of `redis`, v4 and later), connected. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** ioredis (`new Redis()`), connected. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

export interface RedisReplayStoreOptions {
  /** The merchant's connected client. Its reconnection and offline queue are the merchant's (docs/webhook-stores.md). */
  client: NodeRedisClientLike | IoRedisClientLike;
  /** Put before every key (default `gateway-contract:replay:`); one per receiver sharing a Redis. */
  prefix?: string | undefined;
}

/**
 * KEYS[1] absent: set in progress for ARGV[1] (owner) and ARGV[2] (lease, ms). Answers the outcome. A
 * value without `p:` is handled: `h:<owner>`, or a bare owner, a kept claim of the earlier version.
 */
const CLAIM_SCRIPT = `local held = redis.call('GET', KEYS[1])
if not held then redis.call('SET', KEYS[1], 'p:' .. ARGV[1], 'PX', ARGV[2]) return 'claimed' end
if string.sub(held, 1, 2) == 'p:' then return 'in-progress' end
return 'handled'`;

/** KEYS[1] in progress for ARGV[1]: handled for ARGV[2] ms (1). Already handled by ARGV[1]: 1. Otherwise 0. */
const COMPLETE_SCRIPT = `local held = redis.call('GET', KEYS[1])
if held == 'p:' .. ARGV[1] then redis.call('SET', KEYS[1], 'h:' .. ARGV[1], 'PX', ARGV[2]) return 1 end
if held == 'h:' .. ARGV[1] then return 1 end
return 0`;

/** Deletes KEYS[1] when ARGV[1] holds it in progress. */
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == 'p:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

const OUTCOMES: readonly unknown[] = ['claimed', 'in-progress', 'handled'] satisfies ClaimOutcome[];

/** One command to the merchant's client, whichever it is. */
function sender(client: NodeRedisClientLike | IoRedisClientLike | undefined): (args: string[]) => Promise<unknown> {
  // ioredis also has a sendCommand, of another shape: its `call` is looked for first.
  if (client && typeof (client as IoRedisClientLike).call === 'function') {
    const io = client as IoRedisClientLike;
    return ([command, ...args]) => io.call(command as string, ...args);
  }
  if (client && typeof (client as NodeRedisClientLike).sendCommand === 'function') {
    const node = client as NodeRedisClientLike;
    return (args) => node.sendCommand(args);
  }
  throw new TypeError(
    'createRedisReplayStore needs a connected client: createClient() of the `redis` package, or an ioredis instance.',
  );
}

/** A replay store on Redis: keys are `prefix` + the receiver's digest key, values the claim's state and owner. */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const { client, prefix = 'gateway-contract:replay:' } = options ?? ({} as Partial<RedisReplayStoreOptions>);
  if (typeof prefix !== 'string' || prefix.length > 128)
    throw new TypeError('prefix must be a string of at most 128 characters.');
  const send = sender(client);
  const script = (text: string, key: string, ...args: string[]) => send(['EVAL', text, '1', prefix + key, ...args]);
  return {
    async claim(key, leaseMs, owner) {
      checkClaim(key, leaseMs, owner);
      const answer = await script(CLAIM_SCRIPT, key, owner, String(leaseMs));
      if (OUTCOMES.includes(answer)) return answer as ClaimOutcome;
      throw new Error('Redis answered the claim with something other than its outcome.');
    },
    async complete(key, owner, windowMs) {
      checkComplete(key, owner, windowMs);
      const answer = await script(COMPLETE_SCRIPT, key, owner, String(windowMs));
      if (answer === 1 || answer === 0) return answer === 1;
      throw new Error('Redis answered the completion with something other than 1 or 0.');
    },
    async release(key, owner) {
      checkKey(key, owner);
      await script(RELEASE_SCRIPT, key, owner);
    },
  };
}
