import { describe, expect, inject, it } from "vitest";

/**
 * Every URL the discovery documents publish answers: fetched with GET as a person or a scanner would follow it, each
 * same-origin URL in the agent card, the server card, the AI catalog, the API catalog, the skills index, the OAuth
 * metadata, llms.txt and llms-full.txt, the developer page's twin, server.json and the API index gets 2xx, or a documented answer in its protocol's own format that says what to do
 * (a JSON body, never the site's HTML 404 page).
 */
const base = inject("baseUrl");

const documents = [
  "/.well-known/agent-card.json",
  "/mcp/server-card",
  "/.well-known/mcp/server-card.json",
  "/.well-known/ai-catalog.json",
  "/.well-known/api-catalog",
  "/.well-known/agent-skills/index.json",
  "/.well-known/oauth-authorization-server",
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-protected-resource/a2a/v1",
  "/llms.txt",
  "/llms-full.txt",
  "/developers.md",
  "/.well-known/mcp/server.json",
  "/api/v1",
  "/a2a/v1/rest",
];

/** Every string in a JSON value, wherever it is. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) yield* strings(item);
}

/** The same-origin URLs a document publishes (absolute, or relative to the document), URI templates left out. */
async function publishedBy(path: string): Promise<string[]> {
  const res = await fetch(`${base}${path}`);
  expect(res.status, path).toBe(200);
  const text = await res.text();
  const found = /json/.test(res.headers.get("content-type") ?? "")
    ? [...strings(JSON.parse(text))].filter((s) => /^(https?:\/\/|\/|\.\.?\/)/.test(s) && !/\s/.test(s))
    : [...text.matchAll(/\]\((\S+?)\)|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s)"'<>`]+)/g)].map((m) =>
        // A bare URL ends before the punctuation of the sentence it stands in.
        (m[1] ?? m[2] ?? m[3]!).replace(/[.,;:!?]+$/, ""),
      );
  return found
    .filter((url) => !url.includes("{"))
    .flatMap((url) => {
      try {
        const resolved = new URL(url, `${base}${path}`);
        return resolved.origin === new URL(base).origin ? [resolved.href.replace(/#.*$/, "")] : [];
      } catch {
        return [];
      }
    });
}

describe("every published URL", () => {
  it("answers a browser's preflight for a discovery document, and HEAD on the key set", async () => {
    for (const path of ["/.well-known/agent-card.json", "/.well-known/ai-catalog.json", "/.well-known/oauth-authorization-server"]) {
      const res = await fetch(`${base}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: "https://agent.example",
          "access-control-request-method": "GET",
          "access-control-request-headers": "if-none-match",
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("access-control-allow-headers"), path).toMatch(/If-None-Match/i);
    }
    const head = await fetch(`${base}/.well-known/jwks.json`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type")]).toEqual([200, "application/json"]);
    const post = await fetch(`${base}/.well-known/jwks.json`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("answers GET with 2xx, or with a documented answer in its protocol's format, never the HTML 404 page", async () => {
    const urls = new Map<string, string>();
    for (const path of documents) for (const url of await publishedBy(path)) if (!urls.has(url)) urls.set(url, path);
    expect(urls.size).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const [url, from] of urls) {
      const res = await fetch(url, { redirect: "manual" });
      const type = res.headers.get("content-type") ?? "";
      const body = await res.text();
      // A refusal in the protocol's format: JSON (problem+json, OAuth, JSON-RPC, google.rpc), or, for the authorization
      // endpoint a browser opens, its own error page; never the site's 404 page, never a 5xx or an empty answer.
      const html = /html/.test(type);
      const documented = res.status < 400 || (res.status < 500 && body.length > 0 && (/json/.test(type) || (html && res.status !== 404)));
      if (!documented) problems.push(`${res.status} ${type} ${url} (published by ${from})`);
    }
    expect(problems).toEqual([]);
  });
});
