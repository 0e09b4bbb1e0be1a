import { jsonObject, readJson } from "../http/body.ts";
import { identify, requireToken, type Verifier } from "../http/bearer.ts";
import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { quotaReport } from "../limits/headers.ts";
import { Refusal } from "../http/refusal.ts";
import { briefsPath } from "../paths.ts";
import { maxBriefBytes } from "./limits.ts";
import { fileBrief, type PipelineDeps } from "./pipeline.ts";
import { outcomeOf } from "./receipt.ts";

export interface BriefsHandlerDeps {
  baseUrl: string;
  verifier: Verifier;
  pipeline: PipelineDeps;
  /** "A person replies within one business day." (content/contact.yaml) */
  responseTime: string;
}

const noStore = { "Cache-Control": "no-store" };

/** POST /api/v1/briefs, behind the /api gateway (which counts the request and checks the method). */
export function createBriefsHandler({ baseUrl, verifier, pipeline, responseTime }: BriefsHandlerDeps): Handler {
  const app = door(problemJson(baseUrl));
  app.use(identify(verifier));
  // Its own path exactly: the platform may route another spelling here (netlify dev matches paths in any case), which the
  // /api gateway, matching exactly, never counted.
  app.post(briefsPath, async (c) => {
    const caller = requireToken(c, { baseUrl, resource: "origin", scopes: ["svc:brief"] });
    const body = jsonObject(await readJson(c.req.raw, { limit: maxBriefBytes, refuseAs: { wrongType: "invalid_json" } }));
    const idempotencyKey = c.req.header("idempotency-key");
    const waitUntil = (work: Promise<unknown>) => c.env.waitUntil(work);
    const filing = {
      body,
      channel: "rest",
      clientId: caller.clientId,
      owner: caller.grantId,
      address: caller.address,
      idempotencyKey,
      waitUntil,
    } as const;
    const result = await fileBrief(filing, pipeline);
    const outcome = outcomeOf(result, { studio: pipeline.studio, responseTime });
    if (outcome instanceof Refusal) throw outcome;
    if (outcome.kind === "dry_run") return Response.json(outcome.result, { status: 200, headers: noStore });
    // A repeat is the earlier lead (200); a new lead and its idempotent replay are the same 201.
    // A new lead reports the brief quotas it counted against, beside the gateway's own.
    const quota = outcome.counted ? quotaReport(outcome.counted) : {};
    const headers = outcome.kind === "replayed" ? { ...noStore, "Idempotent-Replayed": "true" } : { ...noStore, ...quota };
    return Response.json(outcome.receipt, { status: outcome.kind === "repeat" ? 200 : 201, headers });
  });
  return handlerOf(app);
}
