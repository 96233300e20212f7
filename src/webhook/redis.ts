// `gateway-contract/webhook/redis`: the receiver's replay store on Redis, shared by every instance
// (docs/decisions.md, D-95). A claim is one `SET key owner NX PX ttl`; a release deletes the key only
// when the owner still holds it (a short script, atomic on the server). Takes the merchant's
// connected client, node-redis (`redis`, v4 and later) or ioredis, typed by the methods it calls:
// neither package is needed to compile or load this entry.
import { checkClaim, checkKey, type ReplayStore } from './replayStore.js';

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

/** Deletes KEYS[1] when ARGV[1] holds it. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/** A replay store on Redis: keys are `prefix` + the receiver's digest key, values the claim's owner. */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const { client, prefix = 'gateway-contract:replay:' } = options ?? ({} as Partial<RedisReplayStoreOptions>);
  if (typeof prefix !== 'string' || prefix.length > 128) throw new TypeError('prefix must be a string of at most 128 characters.');
  let send: (args: string[]) => Promise<unknown>;
  // ioredis also has a sendCommand, of another shape: its `call` is looked for first.
  if (client && typeof (client as IoRedisClientLike).call === 'function') {
    const io = client as IoRedisClientLike;
    send = ([command, ...args]) => io.call(command as string, ...args);
  } else if (client && typeof (client as NodeRedisClientLike).sendCommand === 'function') {
    const node = client as NodeRedisClientLike;
    send = (args) => node.sendCommand(args);
  } else {
    throw new TypeError('createRedisReplayStore needs a connected client: createClient() of the `redis` package, or an ioredis instance.');
  }
  return {
    async claim(key, ttlMs, owner) {
      checkClaim(key, ttlMs, owner);
      const answer = await send(['SET', prefix + key, owner, 'NX', 'PX', String(ttlMs)]);
      if (answer === 'OK') return true;
      if (answer === null) return false;
      throw new Error('Redis answered SET ... NX PX with something other than OK or nothing.');
    },
    async release(key, owner) {
      checkKey(key, owner);
      await send(['EVAL', RELEASE_SCRIPT, '1', prefix + key, owner]);
    },
  };
}
