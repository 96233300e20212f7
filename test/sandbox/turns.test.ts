// The turns to send of the sandbox's notifications (src/sandbox/turns.ts): at most `most` at once,
// the others granted oldest first as turns end, a dropped place never granted, checked against a
// plain model of the line on generated sequences.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Turns, type WaitingTurn } from '../../src/sandbox/turns.js';

/** Lets the promise callbacks that are due run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('Turns', () => {
  it('grants `most` turns at once; the others wait and are granted oldest first as turns end', async () => {
    const turns = new Turns(2);
    expect(turns.take()).toBe(true);
    expect(turns.take()).toBe(true);
    const granted: string[] = [];
    const waiting = ['a', 'b', 'c'].map((name) => {
      const turn = turns.take() as WaitingTurn;
      turn.granted.then((ok) => granted.push(`${name}:${ok}`));
      return turn;
    });
    expect([turns.active, turns.waiting]).toEqual([2, 3]);
    waiting[1]?.drop();
    turns.end();
    await settled();
    expect(granted).toEqual(['b:false', 'a:true']);
    turns.end();
    await settled();
    expect(granted).toEqual(['b:false', 'a:true', 'c:true']);
    // A turn granted stays taken until it ends; dropping it then changes nothing.
    waiting[0]?.drop();
    expect([turns.active, turns.waiting]).toEqual([2, 0]);
    turns.end();
    turns.end();
    expect(turns.active).toBe(0);
    expect(turns.take()).toBe(true);
  });

  it('dropAll drops every place in line; the turns taken stay taken', async () => {
    const turns = new Turns(1);
    expect(turns.take()).toBe(true);
    const results = [turns.take(), turns.take()].map((t) => (t as WaitingTurn).granted);
    turns.dropAll();
    expect(await Promise.all(results)).toEqual([false, false]);
    expect([turns.active, turns.waiting]).toEqual([1, 0]);
    turns.end();
    expect(turns.active).toBe(0);
  });

  it('keeps to a plain model of the line on generated sequences (many drops included)', async () => {
    type Step = { kind: 'take' } | { kind: 'end' } | { kind: 'drop'; pick: number } | { kind: 'dropAll' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 5, arbitrary: fc.constant({ kind: 'take' as const }) },
      { weight: 3, arbitrary: fc.constant({ kind: 'end' as const }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'dropAll' as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 400 }), async (most, steps) => {
        const turns = new Turns(most);
        // The model: how many are taken, and the line of places still waiting, oldest first.
        let taken = 0;
        const line: number[] = [];
        const handles = new Map<number, WaitingTurn>();
        const outcome = new Map<number, boolean>();
        const grantedOrder: number[] = [];
        const expectedOrder: number[] = [];
        let next = 0;
        for (const s of steps) {
          if (s.kind === 'take') {
            const id = next++;
            const turn = turns.take();
            if (taken < most) {
              expect(turn).toBe(true);
              taken++;
            } else {
              expect(turn).not.toBe(true);
              if (turn === true) return;
              handles.set(id, turn);
              line.push(id);
              turn.granted.then((ok) => {
                outcome.set(id, ok);
                if (ok) grantedOrder.push(id);
              });
            }
          } else if (s.kind === 'end' && taken > 0) {
            turns.end();
            const first = line.shift();
            if (first === undefined) taken--;
            else expectedOrder.push(first);
          } else if (s.kind === 'drop' && line.length > 0) {
            const [id] = line.splice(s.pick % line.length, 1);
            if (id !== undefined) handles.get(id)?.drop();
          } else if (s.kind === 'dropAll') {
            turns.dropAll();
            line.length = 0;
          }
          expect(turns.active).toBe(taken);
          expect(turns.waiting).toBe(line.length);
        }
        await settled();
        expect(grantedOrder).toEqual(expectedOrder);
        // Every place no longer in line was granted or dropped, once; those in line are neither.
        for (const id of handles.keys())
          expect(outcome.get(id)).toBe(line.includes(id) ? undefined : expectedOrder.includes(id));
      }),
      { numRuns: 200 },
    );
  });
});
