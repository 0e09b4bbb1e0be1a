import { describe, expect, it } from "vitest";
import { z } from "zod";
import { refusalParts, validFields } from "../../src/a2a/operation-task.ts";
import { conditionOf } from "../../src/http/conditions.ts";
import { Refusal } from "../../src/http/refusal.ts";

/** A refused A2A skill in words and data (src/a2a/operation-task.ts), and what a task waiting for a reply may keep. */
const textOf = (parts: ReturnType<typeof refusalParts>) => (parts[0]!.content as { value: string }).value;

describe("refusalParts", () => {
  it("says when to retry after an outage, in the words of the condition", () => {
    const parts = refusalParts(new Refusal("service_unavailable"));
    expect(textOf(parts)).toBe(`${conditionOf("service_unavailable").when} Retry in 30 seconds.`);
    expect((parts[1]!.content as { value: unknown }).value).toEqual({ code: "service_unavailable", retry_after: 30 });
  });

  it("names no retry for a refusal that is no outage, and joins the detail, the resolution and the reply", () => {
    const refusal = new Refusal("rate_limited", { detail: "Too many.", resolution: "Wait.", headers: { "Retry-After": "60" } });
    expect(textOf(refusalParts(refusal, "Reply with another start."))).toBe("Too many. Wait. Reply with another start.");
  });
});

describe("validFields", () => {
  it("keeps the members valid on their own, and drops invalid, absent and unknown ones", () => {
    const schema = z.object({ name: z.string().min(1), count: z.number().optional(), when: z.string() });
    expect(validFields(schema, { name: "Ada", count: "three", colour: "red" })).toEqual({ name: "Ada" });
    expect(validFields(schema, { name: "", count: 3 })).toEqual({ count: 3 });
  });
});
