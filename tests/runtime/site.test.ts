import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { beforeAll, describe, expect, it, inject } from "vitest";
import type { IndexablePage } from "../../src/resources/pages.ts";
import { resourceSchemas } from "../support/resources.ts";

/** The site as the local runtime (netlify dev: static files, edge functions, headers) serves it. */
const base = inject("baseUrl");
const get = (path: string, accept?: string, method = "GET") =>
  fetch(`${base}${path}`, { method, headers: accept ? { accept } : {}, redirect: "manual" });
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const o200k = new Tiktoken(o200k_base);
const twinOnDisk = (path: string) => readFile(fileURLToPath(new URL(`../../dist${path}`, import.meta.url)), "utf8");

let pages: IndexablePage[];
beforeAll(async () => {
  pages = ((await (await get("/api/v1/pages")).json()) as { pages: IndexablePage[] }).pages;
});

describe("pages and their Markdown twins", () => {
  it("serves every indexable page as HTML to browsers, with Vary and a Link to the twin", async () => {
    for (const page of pages) {
      const path = new URL(page.url).pathname;
      const res = await get(path, browserAccept);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("vary")).toMatch(/accept/i);
      expect(res.headers.get("link")).toContain(`<${new URL(page.markdown_url).pathname}>; rel="alternate"; type="text/markdown"`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      await res.body?.cancel();
    }
  });

  it("serves every page's twin to Accept: text/markdown at the page URL", async () => {
    for (const page of pages) {
      const path = new URL(page.url).pathname;
      const res = await get(path, "text/markdown");
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      expect(res.headers.get("vary")).toMatch(/accept/i);
      const body = await res.text();
      expect(body).toBe(await twinOnDisk(new URL(page.markdown_url).pathname));
      // The exact o200k_base count, as the twin's own URL carries it.
      expect(res.headers.get("x-markdown-tokens")).toBe(String(o200k.encode(body).length));
    }
  });

  it.each([
    ["text/markdown, text/html;q=0.9", "text/markdown"],
    ["text/html, text/markdown", "text/markdown"],
    ['text/markdown;q=0.5, text/html;note="a,b";q=0.1', "text/markdown"],
    ["text/markdown;q=0.5, text/html", "text/html"],
    ["text/markdown;q=0", "text/html"],
    ["*/*", "text/html"],
    [browserAccept, "text/html"],
  ])("honours q-values: Accept %s gets %s", async (accept, type) => {
    const res = await get("/offers", accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain(type);
    await res.body?.cancel();
  });

  it("says what the intro call is, with its words spaced, on /offers and in its twin", async () => {
    const { booking } = (await (await get("/api/v1/contact")).json()) as { booking: { duration_minutes: number } };
    const sentence = `Every site is priced on a free ${booking.duration_minutes}-minute intro call.`;
    const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(await (await get("/offers", browserAccept)).text())![1]!;
    expect(main.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ")).toContain(sentence);
    expect(await (await get("/offers", "text/markdown")).text()).toContain(sentence);
  });

  it("serves the explicit .md URL too", async () => {
    const res = await get("/work.md");
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toBe(await twinOnDisk("/work.md"));
  });

  it("answers HEAD with the Markdown headers", async () => {
    const res = await get("/services", "text/markdown", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("answers an unknown page with 404 in the representation asked for", async () => {
    const html = await get("/no-such-page", browserAccept);
    expect(html.status).toBe(404);
    expect(await html.text()).toContain("That page isn&#39;t here.");
    const md = await get("/no-such-page", "text/markdown");
    expect(md.status).toBe(404);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await md.text()).toMatch(/^# That page isn't here\./);
  });
});

describe("the JSON read resources", () => {
  it.each(Object.entries(resourceSchemas))("GET /api/v1%s is JSON in its documented shape", async (path, schema) => {
    const res = await get(`/api/v1${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const json = await res.json();
    expect(schema.parse(json)).toEqual(json);
  });

  it("links from the index to every resource, each read of which answers", async () => {
    const index = (await (await get("/api/v1")).json()) as { resources: { url: string; methods: string[] }[] };
    for (const { url, methods } of index.resources) {
      expect(url.startsWith(`${base}/api/v1/`)).toBe(true);
      if (!methods.includes("GET")) continue;
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      await res.body?.cancel();
    }
  });

  it("serves each case study in full at its own URL", async () => {
    const { case_studies } = (await (await get("/api/v1/case-studies")).json()) as { case_studies: { id: string; url: string }[] };
    for (const study of case_studies) {
      const full = (await (await fetch(study.url)).json()) as { id: string; story: string };
      expect(full.id).toBe(study.id);
      expect(full.story.length).toBeGreaterThan(100);
    }
  });
});
