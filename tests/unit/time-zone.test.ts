import { describe, expect, it } from "vitest";
import { bookingSchema, freeTimesQuerySchema } from "../../src/booking/schema.ts";
import { formatInZone, instantOfWallTime, wallTimeAt } from "../../src/booking/zoned-time.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import { contactMarkdown } from "../../src/markdown/contact.ts";
import { contactResource } from "../../src/resources/contact.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { contactSchema } from "../../src/schemas/contact.ts";
import { timeZone } from "../../src/schemas/time-zone.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir, replacing } from "../support/content.ts";

const refusal = "time_zone must be an IANA time zone such as Europe/Berlin, or UTC";
const messagesOf = (zone: unknown) => timeZone.safeParse(zone).error?.issues.map((issue) => issue.message);

describe("the time-zone field", () => {
  it.each([
    ["a zone of three parts", "America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"],
    ["a zone with hyphens", "America/Port-au-Prince", "America/Port-au-Prince"],
    ["UTC", "UTC", "UTC"],
    ["UTC in lower case", "utc", "UTC"],
    ["a zone in another case", "AMERICA/PORT-AU-PRINCE", "America/Port-au-Prince"],
    // Names that are not in the runtime's list are kept as sent, never swapped for ICU's older name.
    ["a newer name than ICU's", "Europe/Kyiv", "Europe/Kyiv"],
    ["a link", "US/Pacific", "US/Pacific"],
  ])("takes %s (%s) and answers %s", (_, zone, answered) => {
    expect(timeZone.parse(zone)).toBe(answered);
  });

  it("answers an old name ICU still lists as the list spells it", () => {
    expect(Intl.supportedValuesOf("timeZone")).toContain("Europe/Kiev");
    expect(timeZone.parse("europe/kiev")).toBe("Europe/Kiev");
  });

  it("takes every zone the runtime lists, each answered as itself", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    expect(zones.length).toBeGreaterThan(300);
    expect(zones.filter((zone) => timeZone.safeParse(zone).data !== zone)).toEqual([]);
  });

  it.each([
    ["a zone nobody has", "Mars/Olympus"],
    ["an abbreviation Intl would read as a region", "EST"],
    ["a zone with a space after it", "Europe/Berlin "],
    ["nothing", ""],
  ])("refuses %s (%j)", (_, zone) => {
    expect(messagesOf(zone)).toEqual([refusal]);
  });

  it("refuses what is not a string", () => {
    expect(messagesOf(-8)).toEqual(["time_zone must be a string"]);
  });
});

describe("every time_zone", () => {
  const fields = {
    "the studio's hours (content/contact.yaml)": contactSchema.shape.hours.shape.time_zone,
    "a brief's": briefSchema(["launch-site"]).shape.time_zone,
    "a booking's": bookingSchema.shape.time_zone,
    "the free-times query's": freeTimesQuerySchema.shape.time_zone,
  };

  it.each(Object.entries(fields))("%s is the time-zone field", (_, field) => {
    for (const zone of ["America/Argentina/Buenos_Aires", "America/Port-au-Prince", "utc", "europe/kiev", "Europe/Kyiv"]) {
      expect(field.parse(zone), zone).toBe(timeZone.parse(zone));
    }
    expect(field.safeParse("Mars/Olympus").error?.issues.map((issue) => issue.message)).toEqual([refusal]);
  });
});

describe("the studio's time zone in content/contact.yaml", () => {
  /** The sample studio's zone as content/contact.yaml writes it. */
  const studioZone = "time_zone: America/Los_Angeles";
  const withZone = (zone: string) => loadContentDir("content", { "contact.yaml": replacing({ [studioZone]: `time_zone: ${zone}` }) });

  // A real build stops on a schema error naming the file and the field's path (tests/build/build-output.test.ts).
  it("stops the build on a zone the runtime does not know, at hours.time_zone with the reason", async () => {
    await expect(withZone("Mars/Olympus")).rejects.toMatchObject({ issues: [{ path: ["hours", "time_zone"], message: refusal }] });
  });

  // The build writes these three from the site model (src/pages/api/v1/, src/pages/[...twin].md.ts); a real build writes utc.
  it.each([
    ["America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"],
    ["utc", "UTC"],
  ])("with %s, is answered as %s by the contact resource, the functions' copy and the twin", async (zone, answered) => {
    const site = buildSite(await withZone(zone), "https://studio.example");
    expect(contactResource(site).hours.time_zone).toBe(answered);
    expect(prebuiltResources(site).contact.hours.time_zone).toBe(answered);
    expect(
      contactMarkdown(site)
        .split("\n")
        .find((line) => line.startsWith("- Hours: ")),
    ).toMatch(new RegExp(`\\(${answered}\\)$`));
  });
});

describe("a studio's hours in such zones", () => {
  // What free times, the local Cal.com stand-in and the call notice do with the studio's zone: nothing reads its parts.
  it.each([
    ["America/Argentina/Buenos_Aires", "-03:00"],
    ["America/Port-au-Prince", "-05:00"],
    ["UTC", "+00:00"],
  ])("opens at 09:00 on a Monday in %s, written with its offset %s", (zone, offset) => {
    const opens = instantOfWallTime("2026-01-12", "09:00", zone);
    expect(formatInZone(opens, zone)).toBe(`2026-01-12T09:00:00${offset}`);
    expect(wallTimeAt(opens, zone)).toMatchObject({ date: "2026-01-12", time: "09:00:00", weekday: "monday" });
  });
});

describe("a wall time as an instant", () => {
  it("is read at its own offset the morning after a spring-forward night, to the second when given", () => {
    // Los Angeles moved from -08:00 to -07:00 at 02:00 on 2026-03-08.
    expect(instantOfWallTime("2026-03-08", "03:30", "America/Los_Angeles").toISOString()).toBe("2026-03-08T10:30:00.000Z");
    expect(instantOfWallTime("2026-03-08", "09:15:42", "America/Los_Angeles").toISOString()).toBe("2026-03-08T16:15:42.000Z");
    expect(instantOfWallTime("2026-03-07", "23:00", "America/Los_Angeles").toISOString()).toBe("2026-03-08T07:00:00.000Z");
  });
});
