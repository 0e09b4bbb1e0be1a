import type { Redis } from "@upstash/redis";
import { releaseIfOwner, setIfAbsent } from "./records.ts";

/**
 * Requests that must not do the same work at once take turns under a busy marker: SET NX PX with a token of the
 * holder's own, so only the holder gives it up, and a holder that dies gives it up when it expires. The others wait for
 * what the holder made, or for their own turn once it ended without making it: the retries of one Idempotency-Key, and
 * the same booking or brief sent twice at once without one.
 */
export interface Turn {
  done(): Promise<void>;
}

/** Takes `marker` for at most `ms`, until `done`; undefined while another request holds it. */
export async function takeBusy(redis: Redis, marker: string, ms: number): Promise<Turn | undefined> {
  const token = crypto.randomUUID();
  if (!(await setIfAbsent(redis, marker, token, { px: ms }))) return undefined;
  return { done: async () => void (await releaseIfOwner(redis, marker, token)) };
}

/**
 * What the work under a marker made (`made`), once a holder made it; or this request's turn to make it, once no one
 * holds the marker and nothing was made. Past `waitMs` of waiting, throws what `gaveUp` gives: a retry hint for the
 * client, since the holder is still at work.
 */
export async function turnAfter<T>(
  take: () => Promise<Turn | undefined>,
  made: () => Promise<T | null | undefined>,
  { waitMs, gaveUp }: { waitMs: number; gaveUp: () => Error },
): Promise<{ made: T } | { turn: Turn }> {
  const until = Date.now() + waitMs;
  for (;;) {
    const turn = await take();
    // The last holder may have made it just before it gave up its turn.
    const found = await made();
    if (found) {
      await turn?.done();
      return { made: found };
    }
    if (turn) return { turn };
    if (Date.now() >= until) throw gaveUp();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
