import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * POST /api/v1/briefs in-process, through the /api gateway to the briefs function: forged tokens and every kind of bad
 * body, each with its problem document, and the statuses and headers of a brief filed, replayed, repeated or dry run.
 * tests/runtime/briefs.test.ts files briefs end to end through npm start.
 */
let d: Deployment;
let token: string;
beforeAll(async () => {
  d = await startDeployment("local");
  token = await d.token("svc:brief");
});
afterAll(async () => {
  await d.settle();
  await d.close();
});

const post = (body: string | object, headers: Record<string, string> = {}, bearer: string = token) =>
  d.api("/api/v1/briefs", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const problem = async (res: Response) =>
  (await res.json()) as { code: string; status: number; instance: string; errors?: { field: string; code: string }[] };

describe("authentication", () => {
  it("refuses a forged token as invalid_token", async () => {
    const res = await post(freshBrief(), {}, `${token.slice(0, -4)}AAAA`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });
});

describe("bad input", () => {
  it.each([
    ["an array", "[]"],
    ["a string", '"hello"'],
    ["null", "null"],
    ["broken JSON", '{"full_name": '],
  ])("answers %s with invalid_json", async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await problem(res)).code).toBe("invalid_json");
  });

  it("answers a body that is not UTF-8 with invalid_json, never reading it with replacement characters", async () => {
    const brief = Buffer.from(JSON.stringify({ ...freshBrief(), full_name: "NAME" }));
    const at = brief.indexOf("NAME");
    const res = await d.api("/api/v1/briefs", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: Buffer.concat([brief.subarray(0, at), Buffer.from([0xff, 0xfe]), brief.subarray(at + 4)]),
    });
    expect(res.status).toBe(400);
    expect(await problem(res)).toMatchObject({ code: "invalid_json", detail: "The body is not valid UTF-8 (RFC 8259 §8.1)." });
  });

  it("answers a form body with invalid_json", async () => {
    const res = await post("full_name=Ada", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("invalid_json");
  });

  it("refuses a body over 32 KB with payload_too_large", async () => {
    const res = await post({ ...freshBrief(), message: "x".repeat(40_000) });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("payload_too_large");
  });

  it("names every offending field in invalid_brief", async () => {
    const res = await post({ company_name: "", work_email: "nope", colour: "blue" });
    expect(res.status).toBe(422);
    const body = await problem(res);
    expect(body.code).toBe("invalid_brief");
    expect(body.errors?.map((e) => [e.field, e.code])).toEqual([
      ["/full_name", "required"],
      ["/company_name", "too_short"],
      ["/work_email", "invalid_format"],
      ["/colour", "unknown_field"],
    ]);
  });
});

describe("a brief filed", () => {
  it("is 201 with its receipt and the brief quotas it counted; the same again 200; its key again 201, replayed", async () => {
    const brief = freshBrief();
    const key = { "Idempotency-Key": crypto.randomUUID() };
    const filed = await post(brief, key);
    expect(filed.status).toBe(201);
    expect(filed.headers.get("cache-control")).toBe("no-store");
    expect(filed.headers.get("idempotent-replayed")).toBeNull();
    expect(filed.headers.get("ratelimit")).toMatch(/"briefs-per-grant";r=\d+;t=\d+/);
    const receipt = (await filed.json()) as { lead_id: string; status: string };
    expect(receipt).toMatchObject({ lead_id: expect.stringMatching(/^lead_/), status: "received" });

    const replayed = await post(brief, key);
    expect([replayed.status, replayed.headers.get("idempotent-replayed"), replayed.headers.get("cache-control")]).toEqual([
      201,
      "true",
      "no-store",
    ]);
    expect(replayed.headers.get("ratelimit") ?? "").not.toContain("briefs-per-grant");
    expect(await replayed.json()).toMatchObject({ lead_id: receipt.lead_id, status: "received" });

    const repeat = await post(brief);
    expect([repeat.status, repeat.headers.get("idempotent-replayed")]).toEqual([200, null]);
    expect(await repeat.json()).toMatchObject({ lead_id: receipt.lead_id, status: "already_received" });
  });

  it("as a dry run is 200 and files nothing", async () => {
    const before = (await d.leads.list(10_000)).length;
    const res = await post(freshBrief({ dry_run: true }));
    expect([res.status, res.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(await res.json()).toMatchObject({ dry_run: true, valid: true });
    expect((await d.leads.list(10_000)).length).toBe(before);
  });
});
