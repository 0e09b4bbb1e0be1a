import { describe, expect, it } from "vitest";
import { policies } from "../../src/limits/policies.ts";
import { freshBrief } from "../support/briefs.ts";
import { person, type FreeTimes } from "../support/booking.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * The REST write doors as their adapters answer (src/api/briefs.ts, src/api/bookings.ts): the scope each route asks
 * for, a dry run, a replay and a repeat with their statuses and headers, the body's limits, a path that names no
 * booking, and a query parameter given twice. The first test uses every route: a door is built on its first request, and
 * mutation testing credits what building it runs to that test alone.
 */
const { d } = fileDeployment("local");

const zone = "Europe/Berlin";
const json = (body: unknown, token: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });
/** Two tokens of one grant: one that may write (svc:brief) and one that may only read. */
async function grant() {
  const clientId = `client-${crypto.randomUUID()}`;
  return { write: await d.token("svc:brief", clientId), read: await d.token("svc:read", clientId) };
}
const challenged = (res: Response) => res.headers.get("www-authenticate") ?? "";

let taken = 0;
async function freeStart(): Promise<string> {
  const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
  const res = await d.api(`/api/v1/free-times?from=${day(1)}&to=${day(21)}&time_zone=${zone}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as FreeTimes).times[15 + taken++]!.start;
}

describe("the REST write doors", () => {
  it("serve every route, each asking for its own scope, and keep no answer in a cache", async () => {
    const { write, read } = await grant();
    // A write with a read-only token is refused for the scope it needs.
    for (const path of ["/api/v1/briefs", "/api/v1/bookings"]) {
      const refused = await d.api(path, json({}, read));
      expect(refused.status, path).toBe(403);
      expect(challenged(refused), path).toContain('scope="svc:brief"');
    }
    const booked = await d.api("/api/v1/bookings", json(person(await freeStart()), write));
    expect(booked.status).toBe(201);
    const { booking_id } = (await booked.json()) as { booking_id: string };
    const at = `/api/v1/bookings/${booking_id}`;

    // Reading a booking asks for svc:read; cancelling it, svc:brief.
    const unread = await d.api(at, bearer(write));
    expect(unread.status).toBe(403);
    expect(challenged(unread)).toContain('scope="svc:read"');
    const seen = await d.api(at, bearer(read));
    expect(seen.status).toBe(200);
    expect(seen.headers.get("cache-control")).toBe("no-store");
    expect(await seen.json()).toMatchObject({ booking_id, status: "booked" });

    const uncancelled = await d.api(`${at}/cancel`, json({}, read));
    expect(uncancelled.status).toBe(403);
    expect(challenged(uncancelled)).toContain('scope="svc:brief"');
    const cancelled = await d.api(`${at}/cancel`, json({}, write));
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get("cache-control")).toBe("no-store");
    expect(await cancelled.json()).toMatchObject({ booking_id, status: "cancelled" });

    // A path no booking can have is one that names none.
    const nowhere = await d.api("/api/v1/bookings/not-a-booking/cancel", json({}, write));
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({ code: "not_found" });

    const brief = await d.api("/api/v1/briefs", json(freshBrief(), write));
    expect(brief.status).toBe(201);
    expect(brief.headers.get("cache-control")).toBe("no-store");
  });
});

describe("a brief over REST", () => {
  it("answers a dry run with 200 and files nothing", async () => {
    const { write } = await grant();
    const before = (await d.leads.list(1000)).length;
    const res = await d.api("/api/v1/briefs", json({ ...freshBrief(), dry_run: true }, write));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ dry_run: true, valid: true });
    expect((await d.leads.list(1000)).length).toBe(before);
  });

  it("records a new lead as filed through REST and reports the brief quotas it counted", async () => {
    const { write } = await grant();
    const res = await d.api("/api/v1/briefs", json(freshBrief(), write));
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(res.headers.get("ratelimit")).toContain(`"briefs-per-grant";r=${policies["briefs-per-grant"].quota - 1}`);
    const { lead_id } = (await res.json()) as { lead_id: string };
    expect((await d.leads.get(lead_id))?.channel).toBe("rest");
  });

  it("answers a retry under its Idempotency-Key 201 Idempotent-Replayed, and the same brief again 200", async () => {
    const { write } = await grant();
    const brief = freshBrief();
    const key = { "idempotency-key": crypto.randomUUID() };
    const first = await d.api("/api/v1/briefs", json(brief, write, key));
    expect(first.status).toBe(201);
    const { lead_id } = (await first.json()) as { lead_id: string };

    const replayed = await d.api("/api/v1/briefs", json(brief, write, key));
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.headers.get("cache-control")).toBe("no-store");
    expect(await replayed.json()).toMatchObject({ lead_id });

    const repeated = await d.api("/api/v1/briefs", json(brief, write));
    expect(repeated.status).toBe(200);
    expect(repeated.headers.get("idempotent-replayed")).toBeNull();
    expect(repeated.headers.get("cache-control")).toBe("no-store");
    expect(await repeated.json()).toMatchObject({ lead_id });
  });
});

describe("a booking over REST", () => {
  it.each([
    ["an array", "[]"],
    ["a string", '"Grace"'],
  ])("answers a body that is %s with invalid_json", async (_, body) => {
    const res = await d.api("/api/v1/bookings", json(body, (await grant()).write));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_json" });
  });

  it("answers a body sent as another type than JSON with invalid_json, as a brief", async () => {
    const token = (await grant()).write;
    for (const path of ["/api/v1/bookings", "/api/v1/briefs"]) {
      const res = await d.api(path, {
        method: "POST",
        headers: { "content-type": "text/plain", authorization: `Bearer ${token}` },
        body: "{}",
      });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toMatchObject({
        code: "invalid_json",
        detail: 'Content-Type must be application/json, not "text/plain".',
      });
    }
  });

  it("refuses a body over 8 KiB as too large, whatever it holds", async () => {
    const body = { ...person(await freeStart()), notes: "x".repeat(8 * 1024) };
    const res = await d.api("/api/v1/bookings", json(body, (await grant()).write));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });

  it("answers a dry run uncached, and books nothing", async () => {
    const booked = d.cal.bookings().length;
    const res = await d.api("/api/v1/bookings", json(person(await freeStart(), { dry_run: true }), (await grant()).write));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ dry_run: true, valid: true });
    expect(d.cal.bookings().length).toBe(booked);
  });

  it("refuses a free-times query that gives a parameter twice, naming it", async () => {
    const res = await d.api(`/api/v1/free-times?time_zone=${zone}&time_zone=UTC`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "invalid_query",
      errors: [{ field: "/time_zone", code: "invalid_value", message: "time_zone must be given once, not 2 times" }],
    });
  });
});
