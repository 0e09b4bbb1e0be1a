import type { Config } from "@netlify/functions";
import json from "../dist/api/v1/prebuilt.json" with { type: "json" };
import { deliveryFromEnv } from "../src/briefs/delivery-config.ts";
import { deliverDue } from "../src/briefs/deliver.ts";
import { platformEnv } from "../src/config/env.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// Every minute: e-mails every lead whose delivery is due (first attempts that failed, with backoff).
export default async () => {
  const counts = await deliverDue(deliveryFromEnv(platformEnv, json as PrebuiltResources));
  if (counts.delivered + counts.retry + counts.failed > 0) console.log(`lead delivery: ${JSON.stringify(counts)}`);
  return Response.json(counts);
};

export const config: Config = { schedule: "* * * * *" };
