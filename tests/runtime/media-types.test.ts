import { beforeAll, describe, expect, inject, it } from "vitest";
import type * as oauth from "oauth4webapi";
import { discover } from "../support/oauth-client.ts";

/**
 * Media types in any case, through npm start (RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive,
 * and so are charset's values): every Accept and Content-Type a door compares, the Markdown twins' edge condition too.
 */
const base = inject("baseUrl");
const origin = new URL(base).origin;
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  as = await discover(base);
});

describe("Accept: text/markdown in any case", () => {
  it.each(["text/markdown", "TEXT/MARKDOWN", "Text/Markdown", "text/MarkDown; Q=0.9, text/html; q=0.5", "TEXT/MARKDOWN; CHARSET=UTF-8"])(
    "%s at a page is the page's twin, and at an unknown page the 404 twin",
    async (accept) => {
      const twin = await (await fetch(`${base}/offers.md`)).text();
      const page = await fetch(`${base}/offers`, { headers: { accept } });
      expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/markdown; charset=utf-8"]);
      expect(await page.text()).toBe(twin);
      const missing = await fetch(`${base}/no-such-page`, { headers: { accept } });
      expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "text/markdown; charset=utf-8"]);
      expect(await missing.text()).toMatch(/^# That page isn't here\./);
    },
  );

  it("weighed below text/html in any case, keeps the HTML", async () => {
    const res = await fetch(`${base}/offers`, { headers: { accept: "TEXT/HTML, Text/Markdown;Q=0.5" } });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    await res.body?.cancel();
  });

  it("on the contact form's POST, leaves it to its function", async () => {
    const res = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { origin, accept: "TEXT/MARKDOWN", "content-type": "application/x-www-form-urlencoded" },
      body: "full_name=A",
    });
    // The form was read: its fields are checked (a missing one is 422), never refused as a static page's 405.
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('name="full_name"');
  });
});

describe("the alternatives other doors offer, asked for in any case", () => {
  it("A2A's JSON-RPC answers application/a2a+json to an Accept naming it in capitals", async () => {
    const res = await fetch(`${base}/a2a/v1`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "APPLICATION/A2A+JSON", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "none" } }),
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    await res.body?.cancel();
  });

  it("/mcp streams to an Accept that names only Text/Event-Stream", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "Text/Event-Stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect([res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([200, "text/event-stream"]);
    await res.body?.cancel();
  });
});

describe("Content-Type in any case", () => {
  it("is read as the JSON each door takes: OAuth registration, /mcp, both A2A bindings", async () => {
    const registered = await fetch(as.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "Application/JSON; Charset=UTF-8" },
      body: JSON.stringify({ client_name: "Case", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_post" }),
    });
    expect(registered.status).toBe(201);
    await registered.body?.cancel();

    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "APPLICATION/JSON", accept: "Application/Json, Text/Event-Stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
    });
    expect([mcp.status, mcp.headers.get("content-type")?.split(";")[0]]).toEqual([200, "application/json"]);
    expect(await mcp.json()).toEqual({ jsonrpc: "2.0", id: 7, result: {} });

    const rpc = await fetch(`${base}/a2a/v1`, {
      method: "POST",
      headers: { "content-type": "Application/A2A+JSON", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "GetTask", params: { id: "none" } }),
    });
    expect(rpc.status).toBe(200);
    expect(await rpc.json()).toMatchObject({ jsonrpc: "2.0", id: 8, error: {} });

    const rest = await fetch(`${base}/a2a/v1/rest/message:send`, {
      method: "POST",
      headers: { "content-type": "APPLICATION/A2A+JSON", "A2A-Version": "1.0" },
      body: JSON.stringify({
        message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "company" }], metadata: { skillId: "company" } },
      }),
    });
    expect(rest.status).not.toBe(415);
    await rest.body?.cancel();
  });

  it("is read as a form at the token endpoint and the contact form", async () => {
    const token = await fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "Application/X-WWW-Form-URLEncoded; Charset=UTF-8" },
      body: "grant_type=client_credentials&client_id=nobody&client_secret=x",
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: "invalid_client" });

    const contact = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { origin, "content-type": "APPLICATION/X-WWW-FORM-URLENCODED" },
      body: "full_name=A",
    });
    expect(contact.status).toBe(422);
    expect(await contact.text()).not.toContain("It was not sent as a form");
  });
});
