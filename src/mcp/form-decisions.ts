import type { Redis } from "@upstash/redis";
import { claimOnce } from "../store/records.ts";
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
      return (await claimOnce<Decision>(redis, `mcp:form:${grant}:${form}`, decision, { ex: requestStateTtlSeconds + 60 })) ?? decision;
    },
  };
}
