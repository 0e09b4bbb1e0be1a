import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { deliverDue } from "./deliver.ts";
import { deliveryFromEnv } from "./delivery-config.ts";

/** The scheduled delivery job wired to the deployment: e-mails every lead whose delivery is due (with backoff). */
export async function deliveryJobFromEnv(env: Env, prebuilt: PrebuiltResources): Promise<Response> {
  const counts = await deliverDue(deliveryFromEnv(settingsFrom(env), prebuilt));
  if (counts.delivered + counts.retry + counts.failed > 0) console.log(`lead delivery: ${JSON.stringify(counts)}`);
  return Response.json(counts);
}
