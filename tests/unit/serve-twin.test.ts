import { describe, expect, it } from "vitest";
import { pagePath, serveMarkdownTwin, type StaticFetch } from "../../src/twins/serve.ts";

const files: Record<string, string> = {
  "/index.md": "# Home\n",
  "/offers.md": "# Offers\n\nThree sizes.\n",
  "/work/acme.md": "# Acme\n",
  "/404.md": "# Not here\n",
};
// As the platform serves the twins: _headers gives each its exact token count (here for all but /work/acme.md).
const tokens: Record<string, string> = { "/index.md": "3", "/offers.md": "7", "/404.md": "4" };
const fetchStatic: StaticFetch = async (path) =>
  path in files
    ? new Response(files[path], { headers: { ETag: `"${path}"`, ...(tokens[path] ? { "X-Markdown-Tokens": tokens[path] } : {}) } })
    : new Response("<html>404</html>", { status: 404, headers: { "Content-Type": "text/html" } });

const get = (path: string, accept = "text/markdown", method = "GET") =>
  serveMarkdownTwin(new Request(`https://example.com${path}`, { method, headers: { accept } }), fetchStatic);

describe("serveMarkdownTwin", () => {
  it("serves a page's twin with the Markdown headers", async () => {
    const res = await get("/offers");
    expect(res?.status).toBe(200);
    expect(res?.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res?.headers.get("vary")).toBe("Accept");
    expect(res?.headers.get("x-markdown-tokens")).toBe("7");
    expect(res?.headers.get("link")).toBe('<https://example.com/offers>; rel="canonical"');
    expect(res?.headers.get("etag")).toBe('"/offers.md"');
    expect(res?.headers.get("content-signal")).toBe("search=yes, ai-input=yes, ai-train=no");
    expect(res?.headers.get("content-usage")).toBe("search=y, train-ai=n");
    expect(await res?.text()).toBe(files["/offers.md"]);
  });

  it("answers a revalidation with the twin's own ETag with 304", async () => {
    const request = new Request("https://example.com/offers", { headers: { accept: "text/markdown", "if-none-match": '"/offers.md"' } });
    const res = await serveMarkdownTwin(request, fetchStatic);
    expect(res?.status).toBe(304);
    expect(res?.headers.get("etag")).toBe('"/offers.md"');
    expect(await res?.text()).toBe("");
    const stale = new Request("https://example.com/offers", { headers: { accept: "text/markdown", "if-none-match": '"/other.md"' } });
    expect((await serveMarkdownTwin(stale, fetchStatic))?.status).toBe(200);
  });

  it("maps the home page, trailing slashes and .html paths to the same twin", async () => {
    expect(await (await get("/"))?.text()).toBe("# Home\n");
    expect(await (await get("/index.html"))?.text()).toBe("# Home\n");
    expect(await (await get("/work/acme/"))?.text()).toBe("# Acme\n");
    expect(await (await get("/offers.html"))?.text()).toBe(files["/offers.md"]);
  });

  it("answers unknown pages with the 404 page's twin and status 404", async () => {
    const res = await get("/nope");
    expect(res?.status).toBe(404);
    expect(res?.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res?.headers.get("x-markdown-tokens")).toBe("4");
    expect(await res?.text()).toBe("# Not here\n");
  });

  it("passes on the static twin's token count and never makes one up", async () => {
    const res = await get("/work/acme");
    expect(res?.status).toBe(200);
    expect(res?.headers.has("x-markdown-tokens")).toBe(false);
    await res?.body?.cancel();
  });

  it("leaves HTML requests, other files and other methods to the platform", async () => {
    expect(await get("/offers", "text/html,*/*;q=0.8")).toBeUndefined();
    expect(await get("/favicon.svg")).toBeUndefined();
    expect(await get("/offers", "text/markdown", "POST")).toBeUndefined();
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await get("/offers", "text/markdown", "HEAD");
    expect(res?.status).toBe(200);
    expect(res?.headers.get("x-markdown-tokens")).toBe("7");
    expect(res?.body).toBeNull();
  });

  it("names pages by path", () => {
    expect(pagePath("/")).toBe("/");
    expect(pagePath("/index.html")).toBe("/");
    expect(pagePath("/work/")).toBe("/work");
    expect(pagePath("/work/index.html")).toBe("/work");
    expect(pagePath("/offers.md")).toBeUndefined();
  });
});
