import { jsonObject, readJson } from "../http/body.ts";
import { identify, requireToken, type Verifier } from "../http/bearer.ts";
import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { quotaReport } from "../limits/headers.ts";
import { fileBriefOperation, type BriefServices } from "../operations/briefs.ts";
import { callerOf, perform } from "../operations/operation.ts";
import { briefsPath } from "../paths.ts";
import { maxBriefBytes } from "../briefs/limits.ts";

export interface BriefsHandlerDeps {
  baseUrl: string;
  verifier: Verifier;
  briefs: BriefServices;
}

const noStore = { "Cache-Control": "no-store" };

/** POST /api/v1/briefs, behind the /api gateway (which counts the request and checks the method). */
export function createBriefsHandler({ baseUrl, verifier, briefs }: BriefsHandlerDeps): Handler {
  const app = door(problemJson(baseUrl));
  const fileBrief = fileBriefOperation(briefs.schema);
  app.use(identify(verifier));
  // Its own path exactly: the platform may route another spelling here (netlify dev matches paths in any case), which the
  // /api gateway, matching exactly, never counted.
  app.post(briefsPath, async (c) => {
    const token = requireToken(c, { baseUrl, resource: "origin", scopes: [fileBrief.scope] });
    const body = jsonObject(await readJson(c.req.raw, { limit: maxBriefBytes, refuseAs: { wrongType: "invalid_json" } }));
    const caller = callerOf(token, (work) => c.env.waitUntil(work));
    const idempotencyKey = c.req.header("idempotency-key");
    const outcome = await perform(fileBrief, body, { caller, channel: "rest", idempotencyKey, services: briefs });
    if (outcome.kind === "dry_run") return Response.json(outcome.result, { status: 200, headers: noStore });
    // A repeat is the earlier lead (200); a new lead and its idempotent replay are the same 201.
    // A new lead reports the brief quotas it counted against, beside the gateway's own.
    const quota = outcome.counted ? quotaReport(outcome.counted) : {};
    const headers = outcome.kind === "replayed" ? { ...noStore, "Idempotent-Replayed": "true" } : { ...noStore, ...quota };
    return Response.json(outcome.receipt, { status: outcome.kind === "repeat" ? 200 : 201, headers });
  });
  return handlerOf(app);
}
