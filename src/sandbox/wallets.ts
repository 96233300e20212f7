// The money of the test wallets. Every wallet conserves money: a payment is taken only from what
// is neither blocked by a pre-auth nor held for a payment in process, and a payment in process
// holds its amount until it ends. What is held is kept as a running sum, and blocks end in order of
// expiry (a heap), so the cost of a payment does not grow with the number of blocks.
import { MinHeap } from './heap.js';
import type { WalletSeed } from './instruments.js';
import type { Block, Wallet } from './records.js';

export type Source = 'balance' | 'digitalCredit';

/** A wallet of the seed, with nothing blocked or held. */
export function newWallet(seed: WalletSeed): Wallet {
  return {
    ...seed,
    blocks: new Map(),
    expiries: new MinHeap<Block>((a, b) => a.expiresAt < b.expiresAt),
    held: { balance: 0, digitalCredit: 0 },
  };
}

/** Ends the blocks that timed out by `now`. */
function releaseExpired(wallet: Wallet, now: number): void {
  for (let next = wallet.expiries.peek(); next && next.expiresAt <= now; next = wallet.expiries.peek()) {
    wallet.expiries.pop();
    if (wallet.blocks.get(next.preAuthId) === next) {
      wallet.blocks.delete(next.preAuthId);
      wallet.held[next.source] -= next.amount;
    }
  }
}

/** What a wallet can still pay or block from one source at `now`. */
export function availableIn(wallet: Wallet, source: Source, now: number): number {
  releaseExpired(wallet, now);
  return wallet[source] - wallet.held[source];
}

/** Blocks an amount for a pre-auth until `expiresAt` (the caller checked it is available). */
export function block(wallet: Wallet, entry: Block): void {
  wallet.blocks.set(entry.preAuthId, entry);
  wallet.expiries.push(entry);
  wallet.held[entry.source] += entry.amount;
}

/**
 * Ends a block before its time, when its pre-auth is forgotten past the retention (D-67): the money
 * is available again. The heap keeps an ended block until its time comes; it is rebuilt once ended
 * blocks are most of it, so that it holds at most about twice the blocks in force.
 */
export function unblock(wallet: Wallet, preAuthId: string): void {
  const entry = wallet.blocks.get(preAuthId);
  if (!entry) return;
  wallet.blocks.delete(preAuthId);
  wallet.held[entry.source] -= entry.amount;
  if (wallet.expiries.size > 64 && wallet.expiries.size > 2 * wallet.blocks.size)
    wallet.expiries.retain((b) => wallet.blocks.get(b.preAuthId) === b);
}

/** Holds an amount for a payment in process, or says it is not available. */
export function hold(wallet: Wallet, source: Source, amount: number, now: number): boolean {
  if (availableIn(wallet, source, now) < amount) return false;
  wallet.held[source] += amount;
  return true;
}

/** Ends a hold: the amount is taken (`pay`) or given back. */
export function endHold(wallet: Wallet, source: Source, amount: number, pay: boolean): void {
  wallet.held[source] -= amount;
  if (pay) wallet[source] -= amount;
}

/**
 * An add-and-pay: the instrument tops the wallet up by what its available balance lacks, then the
 * wallet pays; it ends with at least what is blocked and held.
 */
export function payAfterTopUp(wallet: Wallet, amount: number, now: number): void {
  releaseExpired(wallet, now);
  wallet.balance = Math.max(wallet.balance - amount, wallet.held.balance);
}
