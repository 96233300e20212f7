// A first-in first-out queue: what the sandbox keeps in order of arrival and takes from the front
// (records to forget oldest first, deliveries waiting for their turn). Adding at the back and taking
// from the front cost O(1) whatever its length, where Array.prototype.shift and a Map's first entry
// after many deletions cost O(n).

export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The first item, without taking it. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Takes the first item. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // The taken front is dropped once it is half the array, so each item is copied O(1) times.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Takes every item, oldest first. */
  drain(): T[] {
    const all = this.items.slice(this.head) as T[];
    this.clear();
    return all;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
