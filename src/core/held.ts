/**
 * What an isolate holds of something it read (a token, a customer's standing, a store, a tenant's
 * cache generation) for at most `ms`, so that requests close together skip the read. A clock that
 * went back makes an entry stale, not eternal. Bounded: past `max` entries it starts again empty.
 */
export class HeldFor<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();

  constructor(
    private readonly ms: number,
    private readonly max = 1000,
  ) {}

  /** The value held for `key` if it was read less than `ms` ago; undefined otherwise. */
  get(key: K, now = Date.now()): V | undefined {
    const held = this.entries.get(key);
    return held && now - held.at < this.ms && now >= held.at ? held.value : undefined;
  }

  set(key: K, value: V, now = Date.now()): void {
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { value, at: now });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
