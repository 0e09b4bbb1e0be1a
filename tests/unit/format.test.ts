import { describe, expect, it } from "vitest";
import { homeMarkdown } from "../../src/markdown/home.ts";
import { offersMarkdown } from "../../src/markdown/offers.ts";
import { describeChange, formatValue, freeIntroCall, sizesPricingNote } from "../../src/site/format.ts";
import { buildSite } from "../../src/site/model.ts";
import { inWords, perWindow } from "../../src/limits/policies.ts";
import { loadContentDir } from "../support/content.ts";

describe("describeChange", () => {
  it.each([
    [{ before: 6.4, after: 1.3 }, "80% lower"],
    [{ before: 187, after: 251 }, "34% higher"],
    [{ before: 3100, after: 14 }, "221× lower"],
    [{ before: 6.2, after: 21.5 }, "3.5× higher"],
    [{ before: 0, after: 36 }, "up from 0"],
    [{ before: 5, after: 0 }, "down to 0"],
  ])("%o -> %s", (result, text) => expect(describeChange(result)).toBe(text));
});

describe("formatValue", () => {
  it("writes percentages without a space and other units with one", () => {
    expect(formatValue(21.5, "%")).toBe("21.5%");
    expect(formatValue(3100, "KB")).toBe("3,100 KB");
  });
});

describe("the intro call, in one phrase", () => {
  it("spaces its words wherever it is joined, on /offers and its twin alike", async () => {
    expect(sizesPricingNote(45)).toBe("Every site is priced on a free 45-minute intro call.");
    const site = buildSite(await loadContentDir("content"), "https://studio.example");
    const note = sizesPricingNote(site.contact.booking.duration_minutes);
    expect(offersMarkdown(site)).toContain(note);
    expect(homeMarkdown(site)).toContain(`each priced on ${freeIntroCall(site.contact.booking.duration_minutes)}.`);
  });
});

describe("durations and windows in words", () => {
  it.each([
    [3600, "one hour", "per hour"],
    [15 * 60, "15 minutes", "per 900 seconds"],
    [24 * 3600, "24 hours", "per UTC day (from 00:00 UTC)"],
    [60, "one minute", "per 60 seconds"],
    [90, "90 seconds", "per 90 seconds"],
  ])("%i s -> %s, %s", (seconds, duration, window) => {
    expect(inWords(seconds)).toBe(duration);
    expect(perWindow(seconds)).toBe(window);
  });
});
