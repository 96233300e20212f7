// A binary heap: what the sandbox keeps in order of a time (jobs by due time, blocks and
// transaction tokens by expiry). Adding and taking the first cost O(log n) whatever its size, with
// no recursion: the sandbox holds state for a whole CI run.

/** Items taken in the order `before` says. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  /** `before(a, b)`: whether `a` comes out first. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The first item, without taking it. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = items[parent] as T;
      if (!this.before(item, above)) break;
      items[i] = above;
      i = parent;
    }
    items[i] = item;
  }

  /** Takes the first item. */
  pop(): T | undefined {
    const items = this.items;
    const first = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return first;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && this.before(items[right] as T, items[left] as T) ? right : left;
      if (!this.before(items[child] as T, last)) break;
      items[i] = items[child] as T;
      i = child;
    }
    items[i] = last;
    return first;
  }

  /** Keeps only the items `keep` accepts (those ended early), in O(n log n). */
  retain(keep: (item: T) => boolean): void {
    const kept = this.items.filter(keep);
    this.items.length = 0;
    for (const item of kept) this.push(item);
  }

  clear(): void {
    this.items.length = 0;
  }
}
