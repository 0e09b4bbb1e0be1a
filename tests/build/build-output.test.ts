/**
 * The build's output, read from the dist/ the runtime built (its MCP Registry key writes the proof of the domain), and two
 * builds of edited content for what only a real build shows: a content error stops `astro build`, naming the file and
 * the field; a fork's edits (the studio renamed, its zone, its registry name, the guide's words) reach every file written.
 * Each rule that stops a build runs in process, through the function the build calls, with the same message:
 * - a reference to an unknown offer, a misspelt {{site:…}}, a page of the guide without a section: `buildSite`
 *   (tests/unit/site-model.test.ts, tests/unit/developer-guide.test.ts);
 * - an unknown {{limit:…}} in the guide, a section others link to gone missing: `renderGuide` (tests/unit/developer-guide.test.ts);
 * - a time zone the runtime does not know, and each zone answered by one name: the contact schema and the site model
 *   (tests/unit/time-zone.test.ts);
 * - a registry key that is not 32 bytes: `settingsFrom`, which the proof's page reads (tests/unit/mcp-registry.test.ts),
 *   and `npm run build` stops on it before Astro starts (tests/unit/build-settings.test.ts).
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildContentInto } from "../../scripts/lib/astro-build.ts";
import { aiCatalog } from "../../src/discovery/ai-catalog.ts";
import { readDotEnv } from "../../scripts/runtime/config.ts";
import { skillFiles } from "../../src/discovery/skills/files.ts";
import { serverCard } from "../../src/mcp/card.ts";
import { registryAuthBody, registryServerJson } from "../../src/mcp/registry.ts";
import { matchRoute } from "../../src/api/routes.ts";
import { guidePagePaths, resourcePaths } from "../../src/paths.ts";
import type { IndexablePage } from "../../src/resources/pages.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir, replacing, type ContentEdits } from "../support/content.ts";
import { serverJsonProblems } from "../support/mcp-registry.ts";
import { openApiResponses } from "../support/openapi-ajv.ts";
import { caseStudyResourceSchema, resourceSchemas } from "../support/resources.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = (path: string) => join(root, "dist", path);
const read = (path: string) => readFile(dist(path), "utf8");
const readJson = async (path: string) => JSON.parse(await read(path)) as unknown;
/** The site model as the runtime's build made it: booking offered to agents where its prebuilt contact says so. */
async function builtSite() {
  const { contact } = (await readJson("api/v1/prebuilt.json")) as { contact: { booking: { agents?: unknown } } };
  return buildSite(await loadContentDir(join(root, "content")), inject("baseUrl"), { agentBooking: Boolean(contact.booking.agents) });
}
const pathOf = (url: string) => new URL(url).pathname;
const o200k = new Tiktoken(o200k_base);

describe("the build output", () => {
  it("gives every indexable page an HTML file and a clean Markdown twin with absolute links", async () => {
    const { pages } = (await readJson("api/v1/pages.json")) as { pages: IndexablePage[] };
    expect(pages.length).toBeGreaterThanOrEqual(9);
    for (const page of [...pages.map((p) => ({ html: pathOf(p.url), md: pathOf(p.markdown_url) })), { html: "/404", md: "/404.md" }]) {
      const html = await read(page.html === "/" ? "index.html" : `${page.html.slice(1)}.html`);
      expect(html).toContain(`<link rel="alternate" href="${page.md}" type="text/markdown">`);
      const md = await read(page.md.slice(1));
      expect(md, page.md).toMatch(/^# \S/);
      expect(md, page.md).not.toMatch(/(?<!\\)<\w+[^>]*>/);
      expect(md, page.md).not.toMatch(/\]\(\//);
    }
  });

  it("writes every JSON resource exactly in the shape its schema documents", async () => {
    for (const [path, schema] of Object.entries(resourceSchemas)) {
      const json = await readJson(`api/v1${path === "" ? "/index" : path}.json`);
      expect(schema.parse(json), path).toEqual(json);
    }
    const { case_studies } = (await readJson("api/v1/case-studies.json")) as { case_studies: { id: string; url: string }[] };
    for (const study of case_studies) {
      const json = await readJson(`api/v1/case-studies/${study.id}.json`);
      expect(caseStudyResourceSchema.parse(json)).toEqual(json);
      expect(pathOf(study.url)).toBe(`/api/v1/case-studies/${study.id}`);
    }
  });

  it("writes every JSON file it serves under /api/v1 valid against its response schema in the OpenAPI document (ajv, formats on)", async () => {
    const responses = openApiResponses((await readJson("api/v1/openapi.json")) as Parameters<typeof openApiResponses>[0]);
    const files = (await readdir(dist("api/v1"), { recursive: true })).filter((f) => f.endsWith(".json")).sort();
    const checked: string[] = [];
    for (const file of files) {
      // netlify.toml serves /api/v1/x from x.json, the index from index.json; the OpenAPI document by its own name.
      const named = `/api/v1/${file}`;
      const path = matchRoute(named) ? named : file === "index.json" ? resourcePaths.index : named.slice(0, -".json".length);
      if (matchRoute(path)?.kind !== "read") continue; // the functions' own data (prebuilt*.json), never served
      const problems = responses.problems(path, await readJson(`api/v1/${file}`));
      expect(problems, `${file}: the OpenAPI document describes no JSON answer to GET ${path}`).toBeDefined();
      expect(problems, file).toEqual([]);
      checked.push(path);
    }
    expect(checked).toEqual(expect.arrayContaining([...Object.values(resourcePaths), "/api/v1/openapi.json"]));
    expect(checked.filter((p) => p.startsWith(`${resourcePaths["case-studies"]}/`)).length).toBeGreaterThanOrEqual(3);
  });

  it("publishes the runtime's base URL in absolute links", async () => {
    const index = (await readJson("api/v1/index.json")) as { resources: { url: string }[] };
    expect(index.resources.every((r) => r.url.startsWith(`${inject("baseUrl")}/api/v1/`))).toBe(true);
  });

  it("writes the AI catalog and the MCP server card (which functions/mcp.ts bundles) as their builders make them", async () => {
    const site = await builtSite();
    expect(await readJson(".well-known/ai-catalog.json")).toEqual(aiCatalog(site));
    expect(await readJson(".well-known/mcp/server-card.json")).toEqual(serverCard(prebuiltResources(site)));
  });

  it("writes server.json for the MCP Registry from the card, and the registry's proof of the domain with the key only", async () => {
    // The runtime's configuration, as it handed it to the build.
    const env = await readDotEnv(join(root, ".env.runtime"));
    const card = serverCard(prebuiltResources(await builtSite()));
    const serverJson = await readJson(".well-known/mcp/server.json");
    expect(serverJson).toEqual(registryServerJson(card, env.MCP_REGISTRY_NAME || undefined));
    expect(serverJsonProblems(serverJson)).toEqual([]);
    const proof = await read(".well-known/mcp-registry-auth").catch(() => undefined);
    expect(proof).toBe(env.MCP_REGISTRY_AUTH_PUBLIC_KEY ? registryAuthBody(env.MCP_REGISTRY_AUTH_PUBLIC_KEY) : undefined);
  });

  it("writes every skill's files under /.well-known/agent-skills/, and the same files for functions/mcp.ts to serve", async () => {
    const site = await builtSite();
    const files = skillFiles(site);
    expect(await readJson("api/v1/prebuilt-skills.json")).toEqual(files);
    const written = (await readdir(dist(".well-known/agent-skills"), { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dist(".well-known/agent-skills"), join(entry.parentPath, entry.name)));
    expect(written.sort()).toEqual([...Object.keys(files), "index.json"].sort());
    for (const [path, text] of Object.entries(files)) expect(await read(`.well-known/agent-skills/${path}`), path).toBe(text);
  });

  it("makes every table that scrolls sideways a keyboard-reachable group named by a heading of its page (WCAG 2.1.1)", async () => {
    const guide = Object.values(guidePagePaths).map((path) => `${path.slice(1)}.html`);
    for (const page of [...guide, "services.html", "offers.html"]) {
      const html = await read(page);
      const wrappers = html.match(/<div class="table-scroll"[^>]*>/g) ?? [];
      expect(wrappers.length, page).toBeGreaterThan(0);
      expect(wrappers.length, page).toBe((html.match(/<table[ >]/g) ?? []).length);
      for (const wrapper of wrappers) {
        expect(wrapper, page).toMatch(/ role="group" tabindex="0" aria-labelledby="[^"]+"/);
        const id = /aria-labelledby="([^"]+)"/.exec(wrapper)![1]!;
        expect(html, `${page}: #${id}`).toMatch(new RegExp(`<h[2-6][^>]* id="${id}"`));
      }
    }
  });

  it("generates per-page headers: Vary and the Markdown alternate on pages, the exact token count on twins", async () => {
    const headers = await read("_headers");
    const offersMd = await read("offers.md");
    expect(headers).toContain(
      '/offers\n  Vary: Accept\n  Link: </offers.md>; rel="alternate"; type="text/markdown", </.well-known/api-catalog>; rel="api-catalog"',
    );
    expect(headers).toContain(
      `/offers.md\n  Content-Type: text/markdown; charset=utf-8\n  Vary: Accept\n  X-Markdown-Tokens: ${o200k.encode(offersMd).length}`,
    );
    // Pages and twins state the usage preferences in both vocabularies (src/discovery/policy.ts).
    for (const path of ["/offers", "/offers.html", "/offers.md", "/robots.txt"]) {
      const rule = headers.split(/\n(?=\/)/).find((r) => r.startsWith(`${path}\n`))!;
      expect(rule, path).toContain("\n  Content-Signal: search=yes, ai-input=yes, ai-train=no");
      expect(rule, path).toContain("\n  Content-Usage: search=y, train-ai=n");
    }
    // The 404 twin, which the edge function serves for unknown pages, carries its count too.
    expect(headers).toContain(
      `/404.md\n  Content-Type: text/markdown; charset=utf-8\n  X-Markdown-Tokens: ${o200k.encode(await read("404.md")).length}`,
    );
  });
});

describe("the developer guide", () => {
  // Every id the guide had when it was one page: problem documents, JSON-RPC errors, the agent card, the OAuth metadata
  // and the deprecation headers link to some of them, readers' bookmarks to the rest.
  const sectionAnchors = ["reading", "resources", "markdown", "oauth", "briefs", "mcp", "a2a", "errors", "quota", "versioning"]
    .concat(["reference", "fields"]);
  const errorAnchors = ["not-found", "method-not-allowed", "rate-limited", "invalid-token", "insufficient-scope", "invalid-json"]
    .concat(["invalid-brief", "payload-too-large", "invalid-idempotency-key", "idempotency-key-reused", "brief-quota-exceeded"])
    .concat(["service-unavailable"])
    .map((code) => `error-${code}`);
  const anchorsOfOnePage = [
    ...["main", "toc-title", "oauth-limits", "oauth-errors", "mcp-errors"],
    ...sectionAnchors,
    ...errorAnchors,
    ...["index", "company", "offers", "case-studies", "pages", "contact"].map((id) => `resource-${id}`),
  ];
  const pages = Object.values(guidePagePaths).map((path) => path.slice(1));
  const idsOf = async (page: string) => new Set([...(await read(`${page}.html`)).matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));

  it("keeps every anchor it had on one of its pages, and on the index each section's and each error code's", async () => {
    const ids = new Set<string | undefined>();
    for (const page of pages) for (const id of await idsOf(page)) ids.add(id);
    expect(anchorsOfOnePage.filter((id) => !ids.has(id))).toEqual([]);
    // A link to /developers#<anchor> lands on the index: at the error code, or at the link to the page of its section.
    const index = await idsOf("developers");
    expect([...sectionAnchors, ...errorAnchors].filter((id) => !index.has(id))).toEqual([]);
  });

  it.each(pages)("%s says the same as its twin: headings, tables, numbers", async (page) => {
    const html = await read(`${page}.html`);
    const twin = await read(`${page}.md`);
    // The page's own text: its main element without the table of contents or the link to the index above a subject page's
    // heading, tags as spaces, entities decoded.
    const main = html
      .slice(html.indexOf("<main"), html.indexOf("</main>"))
      .replace(/<nav class="toc"[\s\S]*?<\/nav>/, "")
      .replace(/<p class="muted">[\s\S]*?<\/p>(?=<h1)/, "");
    const words = (fragment: string) =>
      fragment
        .replace(/<[^>]+>/g, " ")
        .replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e]!);
    const pageHeadings = [...main.matchAll(/<h([1-3])[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => `${m[1]} ${words(m[2]!).trim()}`);
    const prose = twin.replace(/^```[\s\S]*?^```$/gm, "");
    const twinHeadings = [...prose.matchAll(/^(#{1,3}) (.+)$/gm)].map((m) => `${m[1]!.length} ${m[2]!.replace(/[`\\]/g, "")}`);
    expect(twinHeadings.length).toBeGreaterThanOrEqual(2);
    expect(twinHeadings).toEqual(pageHeadings);
    expect((twin.match(/^\| ---/gm) ?? []).length).toBe((main.match(/<table>/g) ?? []).length);
    const numbers = (text: string) => (text.match(/\d+/g) ?? []).sort();
    expect(numbers(twin.replace(/\]\([^)]*\)/g, "]"))).toEqual(numbers(words(main)));
  });
});

/**
 * `astro build` of a copy of content/ with `edits`, into a throw-away folder: its exit code, its output and every file it
 * wrote. One build at a time: builds of one checkout share its .astro/ folder.
 */
async function buildEdited(edits: ContentEdits, env: Record<string, string> = {}) {
  const work = await mkdtemp(join(tmpdir(), "frontdoor-build-"));
  try {
    const contentDir = join(work, "content");
    await cp(join(root, "content"), contentDir, { recursive: true });
    for (const [path, edit] of Object.entries(edits)) await writeFile(join(contentDir, path), edit(await readFile(join(contentDir, path), "utf8")));
    const outDir = join(work, "dist");
    const build = await buildContentInto(root, { contentDir, outDir, cacheDir: join(work, "cache"), env });
    const written =
      build.code === 0
        ? (await readdir(outDir, { recursive: true, withFileTypes: true }))
            .filter((e) => e.isFile())
            .map((e) => relative(outDir, join(e.parentPath, e.name)))
        : [];
    const files = Object.fromEntries(await Promise.all(written.map(async (file) => [file, await readFile(join(outDir, file), "utf8")] as const)));
    return { ...build, files };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

describe("a content error", () => {
  it("fails the build naming the file, the field and what is wrong", async () => {
    const { code, output } = await buildEdited({ "case-studies/tidewater-freight.md": replacing({ "better: lower": "better: smaller" }) });
    expect(code).not.toBe(0);
    expect(output).toContain("case-studies/tidewater-freight.md");
    expect(output).toMatch(/results\.0\.better: Invalid option: expected one of "lower"\|"higher"/);
  });
});

describe("a fork's build", () => {
  // A fork edits company.yaml and contact.yaml (the studio renamed, its addresses, its zone written in lower case), names
  // its server for the MCP Registry and sets no key, and adds a sentence to the developer guide.
  const sentence = "Editors wrote this sentence in content/developers/quota.md.";
  const registryName = "io.github.osprey-works/facts";
  let build: Awaited<ReturnType<typeof buildEdited>>;
  beforeAll(async () => {
    build = await buildEdited(
      {
        "company.yaml": replacing({ "name: Kestrel Studio\n": "name: Osprey Works\n", "legal_name: Kestrel Studio LLC": "legal_name: Osprey Works Ltd" }),
        "contact.yaml": replacing({
          "hello@kestrel.example.com": "hello@osprey.example.org",
          "https://cal.example.com/kestrel/intro-call": "https://cal.example.org/osprey",
          "time_zone: America/Los_Angeles": "time_zone: utc",
        }),
        "developers/quota.md": replacing({ "never a request header.": `never a request header. ${sentence}` }),
      },
      // The key blank: unset, whatever the shell running the tests has.
      { MCP_REGISTRY_NAME: registryName, MCP_REGISTRY_AUTH_PUBLIC_KEY: "" },
    );
  });

  // Files that may still name the sample studio after a fork edits only company.yaml and contact.yaml: prose a fork
  // rewrites anyway, such as a case study's story, may name it in words. None does today: the sample's titles,
  // descriptions and summary name the studio as {{site:studio}}.
  const exempt: string[] = [];

  it("renames the studio and its addresses everywhere by editing company.yaml and contact.yaml", () => {
    const { code, output, files } = build;
    expect(code, output).toBe(0);
    // Every page, twin, JSON resource, llms.txt, the cards, the skills, OpenAPI and the other discovery documents.
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(["index.html", "index.md", "api/v1/company.json", "api/v1/openapi.json", "llms.txt", "llms-full.txt"]),
    );
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([".well-known/agent-card.json", ".well-known/mcp/server-card.json", ".well-known/mcp/server.json"]),
    );
    expect(Object.keys(files).filter((file) => file.endsWith("SKILL.md")).length).toBeGreaterThan(0);
    const naming = Object.entries(files).filter(([file, text]) => /kestrel/i.test(text) && !exempt.includes(file));
    expect(naming.map(([file, text]) => `${file}: ${/.{0,40}kestrel.{0,40}/is.exec(text)![0]}`)).toEqual([]);
    expect(files["index.html"]).toContain("<title>Osprey Works, web development for B2B companies");
    expect(files["index.html"]).toMatch(/<meta name="description" content="Osprey Works designs/);
    expect(files["llms.txt"]).toContain("Osprey Works is a nine-person web-development studio");
  });

  it("answers the studio's time zone by its one name in the site, the functions' copy and the twin", () => {
    type Hours = { hours: { time_zone: string } };
    expect(build.code, build.output).toBe(0);
    expect((JSON.parse(build.files["api/v1/contact.json"]!) as Hours).hours.time_zone).toBe("UTC");
    expect((JSON.parse(build.files["api/v1/prebuilt.json"]!) as { contact: Hours }).contact.hours.time_zone).toBe("UTC");
    expect(build.files["contact.md"]!.split("\n").find((line) => line.startsWith("- Hours: "))).toMatch(/\(UTC\)$/);
  });

  it("gives server.json the MCP Registry's name, and without a key writes no proof of the domain (the path is a 404)", () => {
    expect(build.code, build.output).toBe(0);
    const serverJson = JSON.parse(build.files[".well-known/mcp/server.json"]!) as unknown;
    expect(serverJson).toMatchObject({ name: registryName });
    expect(serverJsonProblems(serverJson)).toEqual([]);
    expect(Object.keys(build.files).filter((file) => file.includes("mcp-registry-auth"))).toEqual([]);
  });

  it("takes the developer guide's page and its twin from content/developers/", () => {
    expect(build.code, build.output).toBe(0);
    expect(build.files["developers/api.html"]).toContain(`${sentence}</p>`);
    expect(build.files["developers/api.md"]).toContain(sentence);
  });
});
