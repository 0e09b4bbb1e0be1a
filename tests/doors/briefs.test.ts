import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * POST /api/v1/briefs in-process, through the /api gateway to the briefs function: forged tokens and every kind of bad
 * body, each with its problem document. tests/runtime/briefs.test.ts files briefs end to end through npm start.
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
