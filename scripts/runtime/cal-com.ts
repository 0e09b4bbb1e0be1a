import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { calComFrom } from "../../src/booking/config.ts";
import { ConfigurationError } from "../../src/config/env.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { resourcePaths } from "../../src/paths.ts";
import type { contactResource } from "../../src/resources/contact.ts";
import { startCalStandIn, type CalStandIn, type Weekday } from "../local-calcom/standin.ts";

/**
 * Cal.com for the local runtime: the configured one when CAL_EVENT_TYPE_ID and CAL_API_KEY are set (npm start stops on
 * one without the other, with the reason), else a stand-in that speaks Cal.com's API, its free times from the hours in
 * content/contact.yaml (as built), its bookings kept in `<data dir>/bookings.json`. The functions reach either through
 * the very same client.
 */
/**
 * Before the build: the stand-in's event type and key when Cal.com is not configured (set in `env`, so the build knows
 * agents can book, and the functions reach the stand-in), or undefined where Cal.com is configured.
 */
export function planLocalCalCom(env: Record<string, string>): { eventTypeId: number; apiKey: string } | undefined {
  try {
    if (calComFrom(settingsFrom((name) => env[name]))) return undefined;
  } catch (error) {
    if (error instanceof ConfigurationError) throw new Error(`CONFIGURATION ERROR: ${error.message}`);
    throw error;
  }
  const plan = { eventTypeId: 1, apiKey: `cal_local_${randomBytes(16).toString("hex")}` };
  Object.assign(env, { CAL_EVENT_TYPE_ID: String(plan.eventTypeId), CAL_API_KEY: plan.apiKey });
  return plan;
}

/** After the build: the stand-in planned, its free times from the hours as built; sets CAL_API_URL in `env`. */
export async function startLocalCalCom(
  root: string,
  plan: { eventTypeId: number; apiKey: string },
  env: Record<string, string>,
  dataDir: string,
  log: (line: string) => void,
): Promise<CalStandIn> {
  const contact = JSON.parse(await readFile(join(root, "dist", `${resourcePaths.contact}.json`), "utf8")) as ReturnType<
    typeof contactResource
  >;
  const { hours } = contact;
  const cal = await startCalStandIn({
    eventTypeId: plan.eventTypeId,
    lengthMinutes: contact.booking.duration_minutes,
    hours: { time_zone: hours.time_zone, days: hours.days as Weekday[], opens: hours.opens, closes: hours.closes },
    apiKey: plan.apiKey,
    dataFile: join(dataDir, "bookings.json"),
  });
  env.CAL_API_URL = cal.url;
  log(
    `Cal.com is not configured: intro calls are booked with the local stand-in at ${cal.url} (bookings in ${join(dataDir, "bookings.json")}).`,
  );
  return cal;
}
