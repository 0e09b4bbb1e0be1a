import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalStore } from "../../scripts/local-store/store.ts";
import type { CalCom } from "../../src/booking/cal-com.ts";
import { daysOf, forgetFreeTimesAt, freeTimes } from "../../src/booking/free-times.ts";
import { BookingStore } from "../../src/booking/store.ts";
import { storeFolder } from "../support/scratch.ts";

/**
 * The free-times query's days (`daysOf`, on an injected clock) and the free times read from Cal.com's weeks of UTC days,
 * kept in the store a minute: over the local store and a scripted Cal.com that answers the same starts for every week.
 */
const now = Date.parse("2050-09-01T06:00:00Z"); // a Thursday
const deps = { studioTimeZone: "UTC", now: () => now };
const day = (ahead: number) => new Date(now + ahead * 86_400_000).toISOString().slice(0, 10);

describe("the days a query asks for", () => {
  it("defaults to a week from today in the studio's time zone", () => {
    expect(daysOf({}, deps)).toEqual({ time_zone: "UTC", from: "2050-09-01", to: "2050-09-08" });
    // 06:00 UTC is still the day before in Honolulu.
    expect(daysOf({}, { ...deps, studioTimeZone: "Pacific/Honolulu" })).toEqual({
      time_zone: "Pacific/Honolulu",
      from: "2050-08-31",
      to: "2050-09-07",
    });
    expect(daysOf({ time_zone: "Pacific/Honolulu", from: "2050-08-31" }, deps)).toMatchObject({ from: "2050-08-31" });
  });

  it("takes today, 60 days ahead, and a span of 0 to 21 days", () => {
    expect(daysOf({ from: day(0), to: day(0) }, deps)).toEqual({ time_zone: "UTC", from: day(0), to: day(0) });
    expect(daysOf({ from: day(60), to: day(81) }, deps)).toEqual({ time_zone: "UTC", from: day(60), to: day(81) });
  });

  it.each([
    ["a day before today", { from: day(-1) }, [["/from", "from must not be before today (2050-09-01 in UTC)"]]],
    ["a day 61 days ahead", { from: day(61) }, [["/from", "from must be at most 60 days ahead"]]],
    ["an end before the start", { from: day(2), to: day(1) }, [["/to", "to must not be before from"]]],
    ["a span of 22 days", { from: day(1), to: day(23) }, [["/to", "to must be at most 21 days after from"]]],
    [
      "a start in the past and an end before it",
      { from: day(-1), to: day(-2) },
      [
        ["/from", "from must not be before today (2050-09-01 in UTC)"],
        ["/to", "to must not be before from"],
      ],
    ],
  ])("refuses %s, naming the field", (_, query, errors) => {
    expect(daysOf(query, deps)).toEqual({ errors: errors.map(([field, message]) => ({ field, code: "invalid_value", message })) });
  });
});

describe("free times", () => {
  let local: Awaited<ReturnType<typeof startLocalStore>>;
  let dir: string;
  beforeAll(async () => {
    dir = await storeFolder("free-times-");
    local = await startLocalStore({ token: "t", snapshotFile: join(dir, "store.json") });
  });
  afterAll(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Free-times deps whose Cal.com answers those of `starts` in the week asked (any that is no time in every week), recording each ask. */
  function scripted(starts: string[]) {
    const asked: { start: string; end: string; timeZone: string }[] = [];
    const cal: CalCom = {
      apiUrl: "https://cal.test",
      eventTypeId: 1,
      apiKey: "k",
      fetch: async (input) => {
        const query = new URL(String(input)).searchParams;
        asked.push({ start: query.get("start")!, end: query.get("end")!, timeZone: query.get("timeZone")! });
        const inWeek = (at: number) => !(at < Date.parse(query.get("start")!) || at > Date.parse(query.get("end")!));
        const data = starts.filter((start) => inWeek(Date.parse(start))).map((start) => ({ start }));
        return Response.json({ status: "success", data: { any: data } });
      },
    };
    const store = new BookingStore(new Redis({ url: local.url, token: "t", enableTelemetry: false }));
    return { asked, deps: { cal, store, lengthMinutes: 30, studioTimeZone: "UTC", now: () => now } };
  }

  // 2050-09-01 is in the week of UTC days from Thursday 2050-08-25 (weeks are aligned to the epoch, a Thursday).
  const week = { start: "2050-08-25T00:00:00.000Z", end: "2050-08-31T23:59:59.000Z", timeZone: "UTC" };
  const nextWeek = { start: "2050-09-01T00:00:00.000Z", end: "2050-09-07T23:59:59.000Z", timeZone: "UTC" };

  it("lists the starts of the days asked, after now, in order, each with its end, in the zone asked", async () => {
    const { asked, deps } = scripted([
      "2050-09-02T09:30:00Z",
      "2050-09-01T06:00:00Z", // now: not free any more
      "2050-09-01T22:59:00Z", // 23:59 in London, the last minute of the day
      "2050-09-01T06:30:00Z",
      "2050-09-01T23:00:00Z", // midnight in London: the next day
      "not a time",
    ]);
    const free = await freeTimes({ time_zone: "Europe/London", from: "2050-09-01", to: "2050-09-01" }, deps);
    expect(free).toEqual({
      time_zone: "Europe/London",
      from: "2050-09-01",
      to: "2050-09-01",
      duration_minutes: 30,
      times: [
        { start: "2050-09-01T07:30:00+01:00", end: "2050-09-01T08:00:00+01:00" },
        { start: "2050-09-01T23:59:00+01:00", end: "2050-09-02T00:29:00+01:00" },
      ],
    });
    // The London day from 2050-08-31T23:00Z straddles two weeks of UTC days.
    expect(asked).toEqual([week, nextWeek]);
  });

  it("lists a day from its first minute, and asks only the weeks the day touches", async () => {
    const { asked, deps } = scripted(["2050-09-02T23:00:00Z", "2050-09-02T10:00:00Z", "2050-09-01T23:00:00Z", "2050-09-01T22:59:00Z"]);
    await deps.store.forgetFreeStarts("2050-09-01");
    const london = await freeTimes({ time_zone: "Europe/London", from: "2050-09-02", to: "2050-09-02" }, deps);
    expect(london.times.map((t) => t.start)).toEqual(["2050-09-02T00:00:00+01:00", "2050-09-02T11:00:00+01:00"]);
    // The last UTC day of a week ends where the next week begins: that week is not asked.
    for (const week of ["2050-08-25", "2050-09-01"]) await deps.store.forgetFreeStarts(week);
    await freeTimes({ time_zone: "UTC", from: "2050-08-31", to: "2050-08-31" }, deps);
    expect(asked).toEqual([nextWeek, week]);
  });

  it("keeps each week a minute, asks again when fresh, and forgets the week of a booking", async () => {
    const { asked, deps } = scripted(["2050-09-03T10:00:00Z"]);
    const saturday = { time_zone: "UTC", from: "2050-09-03", to: "2050-09-03" };
    await deps.store.forgetFreeStarts("2050-09-01");
    expect((await freeTimes(saturday, deps)).times).toEqual([{ start: "2050-09-03T10:00:00+00:00", end: "2050-09-03T10:30:00+00:00" }]);
    await freeTimes(saturday, deps);
    expect(asked).toEqual([nextWeek]);
    await freeTimes(saturday, deps, { fresh: true });
    expect(asked).toEqual([nextWeek, nextWeek]);
    await forgetFreeTimesAt(Date.parse("2050-09-07T23:59:59Z"), deps);
    await freeTimes(saturday, deps);
    expect(asked).toEqual([nextWeek, nextWeek, nextWeek]);
    // A booking in another week leaves this one kept.
    await forgetFreeTimesAt(Date.parse("2050-09-08T00:00:00Z"), deps);
    await freeTimes(saturday, deps);
    expect(asked).toHaveLength(3);
  });
});
