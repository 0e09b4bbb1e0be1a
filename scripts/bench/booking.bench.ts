import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { freeStarts } from "../../src/booking/cal-com.ts";
import { freeTimes } from "../../src/booking/free-times.ts";
import { BookingStore } from "../../src/booking/store.ts";
import { instantOfWallTime, nextDate } from "../../src/booking/zoned-time.ts";
import { startCalStandIn } from "../local-calcom/standin.ts";
import { startLocalStore } from "../local-store/store.ts";
import { compare, describeFigures } from "./stats.ts";

/**
 * Free times as agents poll them: a read served from the one-minute cache (one GET from the local store, the list
 * filtered and written in the person's time zone) against the bare Cal.com stand-in call it spares (GET /v2/slots for
 * the same week, in-process over loopback). Against real Cal.com, a call costs a round trip across the internet and a
 * share of its rate limit; the stand-in is the lower bound of what a cached read saves.
 */
export default async function bookingBench() {
  const dir = await mkdtemp(join(tmpdir(), "frontdoor-booking-bench-"));
  const store = await startLocalStore({ token: "bench", snapshotFile: join(dir, "store.json") });
  const hours = { time_zone: "America/Los_Angeles", days: ["monday", "tuesday", "wednesday", "thursday", "friday"] as const };
  const cal = await startCalStandIn({
    eventTypeId: 1,
    lengthMinutes: 30,
    hours: { ...hours, days: [...hours.days], opens: "09:00", closes: "17:00" },
    apiKey: "cal_bench",
  });
  try {
    const calCom = { apiUrl: cal.url, eventTypeId: 1, apiKey: cal.apiKey };
    const deps = {
      cal: calCom,
      store: new BookingStore(new Redis({ url: store.url, token: "bench", enableTelemetry: false })),
      lengthMinutes: 30,
      studioTimeZone: hours.time_zone,
    };
    const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10);
    const days = { from, to, time_zone: "Europe/Berlin" };
    const start = instantOfWallTime(from, "00:00", days.time_zone);
    const end = instantOfWallTime(nextDate(to), "00:00", days.time_zone);
    const {
      a: cached,
      b: bare,
      ratio,
    } = await compare(
      () => freeTimes(days, deps),
      () => freeStarts(calCom, { from: start, to: end, timeZone: "UTC" }),
      { warmup: 100, count: 200 },
    );
    console.log(describeFigures("free times, served from the cache", cached));
    console.log(describeFigures("the bare stand-in call (GET /v2/slots)", bare));
    console.log(`a cached read serves ${ratio.toFixed(2)}x the reads per second of a call to the stand-in, and sends Cal.com none`);
    const slots = cal.requests().filter((r) => r.path === "/v2/slots").length;
    console.log(`Cal.com stand-in calls: ${slots} (the baseline's, plus one per minute of cached reads)`);
  } finally {
    await cal.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
