import { describe, expect, inject, it } from "vitest";
import { problemAnchor, problems as problemCodes } from "../../src/api/problems.ts";
import type { IndexablePage } from "../../src/resources/pages.ts";

/**
 * Every URL the site publishes answers: fetched with GET as a person or a scanner would follow it, each same-origin URL
 * in the agent card, the server card, the AI catalog, the API catalog, the skills index, the OAuth metadata, llms.txt and
 * llms-full.txt, server.json, the API index, and every page the pages resource lists and its twin (the developer guide's
 * index and subject pages among them) gets 2xx, or a documented answer in its protocol's own format that says what to do
 * (a JSON body, never the site's HTML 404 page). A link to a place on a page lands: the page has the anchor, as the
 * developer guide's index has each `#error-<code>` every problem document's `type` names.
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

/** Each URL's answer, not followed if it redirects: fetched once, whether read as a document or walked as a published URL. */
const answers = new Map<string, Promise<{ status: number; type: string; body: string }>>();
const answerOf = (url: string) => {
  if (!answers.has(url))
    answers.set(
      url,
      fetch(url, { redirect: "manual" }).then(async (res) => ({
        status: res.status,
        type: res.headers.get("content-type") ?? "",
        body: await res.text(),
      })),
    );
  return answers.get(url)!;
};

/** The same-origin URLs a document publishes (absolute, or relative to the document), fragments kept, URI templates left out. */
async function publishedBy(path: string): Promise<string[]> {
  const { status, type, body: text } = await answerOf(`${base}${path}`);
  expect(status, path).toBe(200);
  const found = /json/.test(type)
    ? [...strings(JSON.parse(text))].filter((s) => /^(https?:\/\/|\/|\.\.?\/)/.test(s) && !/\s/.test(s))
    : /html/.test(type)
      ? [...text.matchAll(/ href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"))
      : [...text.matchAll(/\]\((\S+?)\)|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s()[\]"'<>`]+)/g)].map((m) =>
          // A bare URL ends before the punctuation of the sentence it stands in, and a link's label before its target.
          (m[1] ?? m[2] ?? m[3]!).replace(/[.,;:!?]+$/, ""),
        );
  return found
    .filter((url) => !url.includes("{"))
    .flatMap((url) => {
      try {
        const resolved = new URL(url, `${base}${path}`);
        return resolved.origin === new URL(base).origin ? [resolved.href] : [];
      } catch {
        return [];
      }
    });
}

/** Whether a fragment names a place in the answer: an element's id in a page, a JSON Pointer (RFC 6901) in a JSON document. */
function lands(hash: string, type: string, body: string): boolean {
  const fragment = decodeURIComponent(hash.slice(1));
  if (/html/.test(type)) return body.includes(` id="${fragment}"`);
  if (!/json/.test(type) || !fragment.startsWith("/")) return false;
  let at: unknown = JSON.parse(body);
  for (const token of fragment
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, token)) return false;
    at = (at as Record<string, unknown>)[token];
  }
  return true;
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
    const { pages } = (await (await fetch(`${base}/api/v1/pages`)).json()) as { pages: IndexablePage[] };
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual(
      expect.arrayContaining(["/developers", "/developers/api", "/developers/oauth", "/developers/mcp", "/developers/a2a"]),
    );
    const published = new Map<string, string>();
    for (const path of [...documents, ...pages.flatMap((p) => [new URL(p.url).pathname, new URL(p.markdown_url).pathname])])
      for (const url of await publishedBy(path)) if (!published.has(url)) published.set(url, path);
    // The specification's problem `type`: each code's entry on the developer guide's index.
    for (const code of Object.keys(problemCodes))
      published.set(`${base}/developers#${problemAnchor(code)}`, "the type of its problem documents");
    // Each URL once, with the anchors linked on it.
    const urls = new Map<string, { from: string; anchors: Map<string, string> }>();
    for (const [url, from] of published) {
      const { hash } = new URL(url);
      const page = url.replace(/#.*$/, "");
      if (!urls.has(page)) urls.set(page, { from, anchors: new Map() });
      if (hash.length > 1 && !urls.get(page)!.anchors.has(hash)) urls.get(page)!.anchors.set(hash, from);
    }
    expect(urls.size).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const [url, { from, anchors }] of urls) {
      const res = await answerOf(url);
      const { type, body } = res;
      // A refusal in the protocol's format: JSON (problem+json, OAuth, JSON-RPC, google.rpc), or, for the authorization
      // endpoint a browser opens, its own error page; never the site's 404 page, never a 5xx or an empty answer.
      const html = /html/.test(type);
      const documented = res.status < 400 || (res.status < 500 && body.length > 0 && (/json/.test(type) || (html && res.status !== 404)));
      if (!documented) problems.push(`${res.status} ${type} ${url} (published by ${from})`);
      for (const [hash, linkedFrom] of anchors) {
        if (!lands(hash, type, body)) problems.push(`nothing at ${url}${hash} (linked by ${linkedFrom})`);
      }
    }
    expect(problems).toEqual([]);
  });
});
