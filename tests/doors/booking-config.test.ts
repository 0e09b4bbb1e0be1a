import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bookingOffered, calComFrom } from "../../src/booking/config.ts";
import { aboutSetting, settingsFrom } from "../../src/config/settings.ts";
import { mcpCall } from "../support/calls.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * Booking as a deployment configures it: without Cal.com (neither variable), nothing breaks and every booking
 * operation says it is not offered; half configured, a 503 in the API's format and a log line naming the variable.
 */
const deployments: Deployment[] = [];
const deploy = async (env: Record<string, string>) => {
  const d = await startDeployment("local", { env });
  deployments.push(d);
  return d;
};
afterAll(async () => {
  for (const d of deployments) await d.close();
});

describe("a deployment without Cal.com", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy({ CAL_EVENT_TYPE_ID: "", CAL_API_KEY: "" });
  });

  it("answers every booking operation with booking_not_offered, and keeps the contact resource's link", async () => {
    const token = await d.token("svc:read svc:brief");
    const auth = { authorization: `Bearer ${token}` };
    for (const [path, init] of [
      ["/api/v1/free-times", {}],
      ["/api/v1/bookings", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "{}" }],
      [`/api/v1/bookings/bk_${"0".repeat(20)}`, { headers: auth }],
    ] as const) {
      const res = await d.api(path, init as RequestInit);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: "booking_not_offered" });
    }
    const contact = (await (await d.api("/api/v1/contact")).json()) as { booking: { url: string } };
    expect(contact.booking.url).toMatch(/^https:\/\//);
  });
});

describe("a deployment with an event type and no API key", () => {
  it("answers 503 with Retry-After, as any misconfiguration", async () => {
    const d = await deploy({ CAL_API_KEY: "" });
    const res = await d.api("/api/v1/free-times");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("300");
    expect(await res.json()).toMatchObject({ code: "service_unavailable" });
  });

  it("answers /mcp with 503 in JSON-RPC, as a half-configured Postmark does, and the A2A booking in its task", async () => {
    const d = await deploy({ CAL_API_KEY: "" });
    const mcp = await d.mcp(mcpCall("tools/list", {}));
    expect(mcp.status).toBe(503);
    expect(await mcp.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { code: "service_unavailable" } } });

    const token = await d.token("svc:read svc:brief");
    const message = { messageId: "m1", role: "ROLE_USER", parts: [{ data: { skill: "free-times" } }] };
    const a2a = await d.a2a({
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
    });
    expect(a2a.status).toBe(200);
    const text = await a2a.text();
    expect(text).toContain("service_unavailable");
    expect(text).not.toMatch(/CAL_API_KEY|at .*\.ts:\d+/);
  });

  it("names the variable that is missing, either way round", () => {
    const settings = (env: Record<string, string>) => settingsFrom((name) => env[name]);
    expect(() => calComFrom(settings({ CAL_EVENT_TYPE_ID: "7" }))).toThrow(
      /^CAL_API_KEY is not set: booking looks the person.s booking up/,
    );
    expect(() => calComFrom(settings({ CAL_API_KEY: "cal_live_x" }))).toThrow(/CAL_API_KEY is set but CAL_EVENT_TYPE_ID is not/);
    expect(() => calComFrom(settings({ CAL_EVENT_TYPE_ID: "seven", CAL_API_KEY: "k" }))).toThrow(
      /^CAL_EVENT_TYPE_ID must be a whole number/,
    );
    expect(calComFrom(settings({}))).toBeUndefined();
  });

  it("reads the whole configuration, Cal.com's own API and its timeout by default", () => {
    const settings = (env: Record<string, string>) => settingsFrom((name) => env[name]);
    const both = { CAL_EVENT_TYPE_ID: "7", CAL_API_KEY: "cal_live_x" };
    expect(calComFrom(settings(both))).toEqual({ apiUrl: "https://api.cal.com", eventTypeId: 7, apiKey: "cal_live_x" });
    expect(calComFrom(settings({ ...both, CAL_API_URL: "https://cal.studio.example", FRONTDOOR_CAL_TIMEOUT_MS: "900" }))).toEqual({
      apiUrl: "https://cal.studio.example",
      eventTypeId: 7,
      apiKey: "cal_live_x",
      timeoutMs: 900,
    });
    expect([bookingOffered(settings(both)), bookingOffered(settings({}))]).toEqual([true, false]);
  });
});

describe("the build and the functions", () => {
  const settings = (env: Record<string, string>) => settingsFrom((name) => env[name]);

  it("decide booking is offered by CAL_EVENT_TYPE_ID alone at build time: the key is the functions' secret", () => {
    expect(bookingOffered(settings({ CAL_EVENT_TYPE_ID: "7" }))).toBe(true);
    expect(aboutSetting("CAL_API_KEY").readByBuild).toBeFalsy();
    expect(aboutSetting("CAL_EVENT_TYPE_ID").readByBuild).toBe(true);
  });

  it("refuse booking with 503 and a log line naming the fix when the build did not see CAL_EVENT_TYPE_ID", async () => {
    const d = await deploy({});
    // The handlers take console.error when they are built: the spy comes first.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const unseen = await startDeployment("local", { buildEnv: { CAL_EVENT_TYPE_ID: "" } });
      deployments.push(unseen);
      const res = await unseen.api("/api/v1/free-times");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: "service_unavailable" });
      expect(logged.mock.calls.flat().join("\n")).toMatch(/CAL_EVENT_TYPE_ID is set for the functions but the build did not see it/);
    } finally {
      logged.mockRestore();
    }
    expect((await d.api("/api/v1/free-times")).status).toBe(200);
  });

  it("refuse booking the same way when the build offered it and the functions have no Cal.com", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const d = await startDeployment("local", { env: { CAL_EVENT_TYPE_ID: "", CAL_API_KEY: "" }, buildEnv: {} });
      deployments.push(d);
      const res = await d.api("/api/v1/free-times");
      expect(res.status).toBe(503);
      expect(logged.mock.calls.flat().join("\n")).toMatch(/the build offers booking .* but the functions have no CAL_EVENT_TYPE_ID/);
    } finally {
      logged.mockRestore();
    }
  });
});
