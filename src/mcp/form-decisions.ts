import type { Redis } from "@upstash/redis";
import { requestStateTtlSeconds } from "./constants.ts";

export type Decision = "accept" | "decline";

/**
 * The person's decision on one confirmation form, kept as long as its requestState can be answered: the first decision
 * stands, so a decline is never followed by a write, whatever is answered to the same form after it.
 */
export interface FormDecisions {
  /** Records `decision` for the grant's form unless one is recorded; gives the decision that stands. */
  decide(grant: string, form: string, decision: Decision): Promise<Decision>;
}

export function formDecisions(redis: Redis): FormDecisions {
  return {
    async decide(grant, form, decision) {
      const key = `mcp:form:${grant}:${form}`;
      if ((await redis.set(key, decision, { nx: true, ex: requestStateTtlSeconds + 60 })) === "OK") return decision;
      return (await redis.get<Decision>(key)) ?? decision;
    },
  };
}
