import { Redis } from "@upstash/redis";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type * as oauth from "oauth4webapi";
import { policies } from "../../src/limits/policies.ts";
import { freshBrief } from "../support/briefs.ts";
import { form } from "../support/calls.ts";
import { fetchFromLoopback } from "../support/loopback.ts";
import { sentForLead } from "../support/postmark-standin.ts";
import { authorizeUrl, consentScreen, discover, register } from "../support/oauth-client.ts";

/**
 * What an attacker who read only the README tried at the edges of the doors, through npm start: the same-origin rule of
 * the consent form, what a preflight or another site's page costs, the methods each A2A REST route takes, JSON-RPC ids,
 * media types and names a person cannot see, the contact form's own refusals, and a Content-Type that parses as nothing.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  as = await discover(base);
});

const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("the consent form", () => {
  it("takes a decision only from a page of this site: another site's Referer, or neither header, is refused", async () => {
    const { client_id } = await register(as, { redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" });
    for (const headers of [{ referer: "https://evil.example/csrf.html" }, {}] as Record<string, string>[]) {
      const screen = await consentScreen(authorizeUrl(as, { client_id, redirect_uri: "http://127.0.0.1:9/cb", code_challenge: challenge }));
      // Not postConsent, which posts as a browser does (with the page's Origin): here exactly these headers.
      const answer = await fetch(as.authorization_endpoint!, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: screen.cookie, ...headers },
        body: new URLSearchParams({ request: screen.requestToken, decision: "approve" }),
      });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers.get("location")).toBeNull();
      await answer.body?.cancel();
    }
  });
});

describe("what another site's page costs a visitor", () => {
  it("counts neither a preflight nor a cross-site POST at /mcp against the visitor's address", async () => {
    const counted = async () => (await store.keys("rl:mcp:*")).length;
    for (const key of await store.keys("rl:mcp:*")) await store.del(key);
    const preflight = await fetch(`${base}/mcp`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    await preflight.body?.cancel();
    const post = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
      body: "{}",
    });
    expect(post.status).toBe(403);
    await post.body?.cancel();
    expect(await counted()).toBe(0);
  });
});

describe("A2A's HTTP+JSON routes", () => {
  it.each([
    ["DELETE", "/a2a/v1/rest/tasks", "GET, HEAD, OPTIONS"],
    ["POST", "/a2a/v1/rest/tasks", "GET, HEAD, OPTIONS"],
    ["GET", "/a2a/v1/rest/message:send", "POST, OPTIONS"],
    ["PUT", "/a2a/v1/rest/tasks/abc:cancel", "POST, OPTIONS"],
  ])("answer %s %s with 405 and the methods that path takes", async (method, path, allow) => {
    const res = await fetch(`${base}${path}`, { method, headers: { "A2A-Version": "1.0" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    await res.body?.cancel();
  });
});

describe("JSON-RPC ids", () => {
  it.each([true, { a: 1 }, 1.5, [1]])("refuse the id %j with -32600 and id null, before any method runs", async (id) => {
    const res = await fetch(`${base}/a2a/v1`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "GetTask", params: { id: "x" } }),
    });
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });
});

describe("media types and names", () => {
  it("refuses a JSON type the endpoint does not name, and a client name a person cannot read as it is", async () => {
    const register = (type: string, client_name: string) =>
      fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": type },
        body: JSON.stringify({ client_name, grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" }),
      });
    const foreign = await register("application/foo+json", "Test");
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ error: "invalid_client_metadata" });
    for (const name of ["Kestrel\u200bStudio", "Kestrel \ufffd Studio", "\u202eoidutS lertseK"]) {
      const hidden = await register("application/json", name);
      expect(hidden.status, JSON.stringify(name)).toBe(400);
      expect(await hidden.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
  });
});

describe("the contact form", () => {
  const origin = new URL(base).origin;
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${base}/contact`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });

  it("is answered by its function whatever the Accept header asks for", async () => {
    const res = await post("full_name=A&company_name=B&work_email=c%40example.com", {
      origin: "https://evil.example",
      accept: "text/markdown",
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Not sent");
  });

  it("says a body of another type is not a form, and refuses a field given twice", async () => {
    const typed = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { origin, "content-type": "text/plain" },
      body: "full_name=A",
    });
    expect(typed.status).toBe(415);
    expect(await typed.text()).toContain("It was not sent as a form");
    const before = await store.zcard("leads");
    for (const body of [
      "full_name=Dup+One&full_name=Dup+Two&company_name=B&work_email=dup%40example.com",
      `full_name=Bot&company_name=Spam&work_email=bot%40example.com&website=&website=https%3A%2F%2Fspam.example`,
    ]) {
      const res = await post(body, { origin });
      expect(res.status, body).toBe(400);
      expect(await res.text()).toContain("Not sent");
    }
    expect(await store.zcard("leads")).toBe(before);
  });

  it("reports the brief quotas a sent form counted, as the API does", async () => {
    // An address of its own (npm start hands the function its client's): the counts are this test's alone.
    const res = await fetchFromLoopback("127.0.0.21")(`${base}/contact`, form(freshBrief(), { Origin: origin }));
    expect(res.status).toBe(200);
    const lead = /Reference: (lead_[A-Za-z0-9_-]+)/.exec(await res.text())?.[1];
    expect(lead).toBeDefined();
    const perGrant = policies["briefs-per-grant"].quota;
    expect(res.headers.get("RateLimit")).toContain(`"briefs-per-grant";r=${perGrant - 1}`);
    expect(res.headers.get("RateLimit")).toContain(`"contact-form";r=${policies["contact-form"].quota - 1}`);
    expect(res.headers.get("RateLimit-Remaining")).toBe(String(perGrant - 1));
    // Its e-mail goes out after the answer: waited for here, so that no later test counts it as its own.
    await expect.poll(async () => (await sentForLead(inject("postmark"), lead!)).length).toBe(1);
  });
});

describe("a Content-Type that parses as nothing", () => {
  it("is answered, and the site keeps serving", async () => {
    const odd = await fetch(`${base}/`, { headers: { "content-type": ";;;" } });
    expect(odd.status).toBe(200);
    await odd.body?.cancel();
    const next = await fetch(`${base}/`);
    expect(next.status).toBe(200);
    await next.body?.cancel();
  });
});
