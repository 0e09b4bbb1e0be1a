/**
 * tests/support/upstash-gateway.ts as mutation runs see it (vitest.mutate.config.ts): no real Redis, so every store
 * test runs on the local store. A mutation run repeats the tests thousands of times; the machine's Redis databases
 * belong to the suite (and to whoever else runs it on the machine), whose runs a mutation run must neither empty nor
 * be confused by.
 */
export * from "./upstash-gateway.ts";

export async function realRedisAvailable(): Promise<boolean> {
  return false;
}
