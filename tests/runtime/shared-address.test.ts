import { Redis } from "@upstash/redis";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { policies, type PolicyName } from "../../src/limits/policies.ts";
import { freshBrief } from "../support/briefs.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { fetchFromLoopback } from "../support/loopback.ts";
import { discover } from "../support/oauth-client.ts";
import { approvals, callbackUri } from "../support/people.ts";
import { countedFor, localClient, setCounted } from "../support/quota-count.ts";

/**
 * Two people behind one hosted client, through npm start: each approves it in a browser of their own address (127.0.0.2
 * and 127.0.0.3), and its agents call from 127.0.0.1, the egress address every person's calls share. One of them farms
 * grants; the address ceilings count each grant where its person approved it, so the other is served as before.
 * tests/doors/shared-address.test.ts runs the crowd of 50 in-process.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
const [farmer, other] = ["127.0.0.2", "127.0.0.3"];
const consentOf = (token: string) => decodeJwt(token).consent_address as string;
let documents: DocumentHost;

beforeAll(async () => {
  documents = await startDocumentHost();
});
afterAll(() => documents?.close());

/** Sets a ceiling's counter of `subject` to its quota, as if the address had used it all. */
const spent = (policy: PolicyName, subject: string) => setCounted(store, policy, subject, policies[policy].quota);

const post = (path: string, body: unknown, token: string) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe("npm start", () => {
  it("hands each function its client's own address, as Netlify does", async () => {
    const remaining = async (from: string) => {
      const as = await discover(base);
      const metadata = { client_name: "Counted apart", redirect_uris: [callbackUri], token_endpoint_auth_method: "none" };
      const res = await fetchFromLoopback(from)(as.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(metadata),
      });
      expect(res.status).toBe(201);
      return res.headers.get("RateLimit");
    };
    const first = policies["oauth-register"].quota - 1;
    expect(await remaining(farmer)).toContain(`"oauth-register";r=${first}`);
    expect(await remaining(other)).toContain(`"oauth-register";r=${first}`);
    expect(await remaining(farmer)).toContain(`"oauth-register";r=${first - 1}`);
  });

  it("hands the /api edge gateway its client's own address, which no client can name", async () => {
    // Addresses no other test uses, so the counts are this test's alone.
    const [one, another, third] = ["127.0.0.12", "127.0.0.13", "127.0.0.14"];
    const remaining = async (from: string, headers: Record<string, string> = {}) => {
      const res = await fetchFromLoopback(from)(`${base}/api/v1/company`, { headers });
      expect(res.status).toBe(200);
      return res.headers.get("RateLimit");
    };
    const first = policies["public-api"].quota - 1;
    expect(await remaining(one)).toContain(`"public-api";r=${first}`);
    expect(await remaining(another)).toContain(`"public-api";r=${first}`);
    // The header the front passes the address in is the front's alone: a client's own is dropped (were it read, this
    // would count at one, already counted once).
    expect(await remaining(third, { "x-frontdoor-dev-client-address": one })).toContain(`"public-api";r=${first}`);
  });
});

describe("one person farming grants behind a hosted client's address", () => {
  it("spends the ceilings of the address they approve from; the other person behind the same address is served", async () => {
    const clientId = documents.publishClient("/farmed.json", { client_name: "Hosted connector", redirect_uris: [callbackUri] });
    const through = (browser: string) => approvals(base, clientId, { browser: () => fetchFromLoopback(browser), agent: () => fetch });
    const farming = await through(farmer);
    const free = (await (await fetch(`${base}/api/v1/free-times?time_zone=Europe/Berlin`)).json()) as { times: { start: string }[] };
    const booking = (n: number) => ({
      full_name: "Grace Hopper",
      work_email: `grace.${crypto.randomUUID().slice(0, 8)}@navy.example`,
      start: free.times.at(-1 - n)!.start,
      time_zone: "Europe/Berlin",
    });

    const first = await farming.token();
    expect((await post("/api/v1/bookings", booking(0), first)).status).toBe(201);
    expect((await post("/api/v1/briefs", freshBrief(), first)).status).toBe(201);
    expect(await countedFor(store, "bookings-per-address", localClient)).toBe(0);
    await spent("bookings-per-address", consentOf(first));
    await spent("briefs-per-address", consentOf(first));

    const farmed = await farming.token();
    const refused = await post("/api/v1/bookings", booking(1), farmed);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([429, "booking_quota_exceeded"]);
    expect((await post("/api/v1/briefs", freshBrief(), farmed)).status).toBe(429);

    const theirs = await (await through(other)).token();
    expect(consentOf(theirs)).not.toBe(consentOf(first));
    expect((await post("/api/v1/bookings", booking(2), theirs)).status).toBe(201);
    expect((await post("/api/v1/briefs", freshBrief(), theirs)).status).toBe(201);
  });
});
