/**
 * The Redis database of each resilience file on the machine's Redis (emptied when the file starts and when it ends): one
 * each, so that the files run in parallel. The store tests of the unit project use 7, 8, 9, 12, 13 and 14, the benches 10.
 */
export const redisDatabase = {
  "upstash-faults": 11,
  "fuzz-rest": 15,
  "postmark-faults": 2,
  concurrency: 3,
  "fuzz-agents": 4,
  "fuzz-oauth": 5,
  regressions: 6,
} as const;
