/**
 * Reads a write sends at once, in one round trip, whose refusals still come in the order a client
 * has always seen them: the first read that failed, by its place in the list, is the one thrown.
 */
export async function readTogether<T extends unknown[]>(...reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  for (const read of settled) if (read.status === "rejected") throw read.reason;
  return settled.map((read) => (read as PromiseFulfilledResult<unknown>).value) as T;
}
