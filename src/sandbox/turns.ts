// Turns to send: a few at once, the others waiting in line, oldest first (docs/decisions.md, D-58).
// The sandbox's notifications take a turn before they go out, so that a merchant that never answers
// holds `most` of the sandbox's sockets, not one per token. A waiting turn can be dropped (a reset, a
// stop, its record forgotten): it is never granted, and the line is rebuilt once the dropped ones
// are most of it, so that a line nobody is served from does not grow without end.
import { Fifo } from './fifo.js';

/** A turn waiting in line: `granted` resolves true when it comes, false when it is dropped first. */
export interface WaitingTurn {
  readonly granted: Promise<boolean>;
  /** Drops it, if it still waits: it is not granted (nothing happens once it was). */
  drop(): void;
}

interface Place {
  state: 'waiting' | 'granted' | 'dropped';
  resolve: (granted: boolean) => void;
}

/** Dropped places are taken out of the line once there are more than this many and they are most of it. */
const DROPPED_KEPT = 64;

export class Turns {
  /** Turns taken and not ended, at most `most`. */
  private taken = 0;
  private readonly line = new Fifo<Place>();
  /** Dropped places still in the line. */
  private dropped = 0;

  /** @param most how many turns may be taken at once (1 or more) */
  constructor(private readonly most: number) {}

  /** How many turns are taken now. */
  get active(): number {
    return this.taken;
  }

  /** How many wait in line (dropped ones not counted). */
  get waiting(): number {
    return this.line.size - this.dropped;
  }

  /** A turn: at once (true) while fewer than `most` are taken, else a place in line. Each turn granted is ended by `end()`. */
  take(): true | WaitingTurn {
    if (this.taken < this.most) {
      this.taken++;
      return true;
    }
    let resolve: (granted: boolean) => void = () => undefined;
    const granted = new Promise<boolean>((r) => {
      resolve = r;
    });
    const place: Place = { state: 'waiting', resolve };
    this.line.push(place);
    return { granted, drop: () => this.drop(place) };
  }

  /** Ends a turn: it passes to the oldest place still waiting, if any. */
  end(): void {
    for (let next = this.line.shift(); next; next = this.line.shift()) {
      if (next.state === 'dropped') {
        this.dropped--;
        continue;
      }
      next.state = 'granted';
      next.resolve(true);
      return;
    }
    this.taken--;
  }

  /** Drops every place in line (a reset, a stop); the turns taken stay taken until they end. */
  dropAll(): void {
    for (const place of this.line.drain()) {
      if (place.state !== 'waiting') continue;
      place.state = 'dropped';
      place.resolve(false);
    }
    this.dropped = 0;
  }

  private drop(place: Place): void {
    if (place.state !== 'waiting') return;
    place.state = 'dropped';
    place.resolve(false);
    if (++this.dropped > DROPPED_KEPT && this.dropped * 2 > this.line.size) {
      for (const kept of this.line.drain()) if (kept.state === 'waiting') this.line.push(kept);
      this.dropped = 0;
    }
  }
}
