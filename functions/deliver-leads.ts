import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("deliver-leads", import.meta.url)) as Promise<typeof import("../src/briefs/delivery-job.ts")>;

// Every minute: e-mails every lead whose delivery is due (first attempts that failed, with backoff).
export default async () => {
  const [{ deliveryJobFromEnv }, { default: json }] = await Promise.all([
    door(),
    import("../dist/api/v1/prebuilt.json", { with: { type: "json" } }),
  ]);
  return deliveryJobFromEnv(platformEnv, json as PrebuiltResources);
};

export const config: Config = { schedule: "* * * * *" };
