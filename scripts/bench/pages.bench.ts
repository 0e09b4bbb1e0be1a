import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import * as oauth from "oauth4webapi";
import { authorizeUrl, discover, register } from "../../tests/support/oauth-client.ts";
import { startIsolatedRuntime } from "../runtime/isolated.ts";
import { countTokens } from "../../src/twins/tokens.ts";
import { serveStaticSite } from "./static-site.ts";
import { chromiumPath } from "../lib/chromium.ts";
import { brotliBytes, pageBudgets } from "../lib/page-budgets.ts";

/**
 * What a visitor gets, per page type: Lighthouse's four category scores and every failing audit (mobile with
 * simulated throttling, Lighthouse's default, is the configuration that counts; PAGES_BENCH_DESKTOP=1 adds desktop),
 * the bytes of each kind the page loads, and the Markdown twin's tokens against the HTML's (o200k_base); then every page
 * of dist/ against the page budgets (scripts/lib/page-budgets.ts).
 *
 * The static pages are served from dist/ by a small server that applies netlify.toml's and dist/_headers' headers and
 * compresses as the CDN does (scripts/bench/static-site.ts): netlify dev is an emulator whose per-request cost and
 * missing compression would distort the performance score. The consent screen exists only as a function, so it is
 * audited through the local runtime, started here exactly as the tests' global setup starts it.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const chromePath = chromiumPath();
const categories = ["performance", "accessibility", "best-practices", "seo"] as const;

/** One page of each type; `path` names the HTML file and twin in dist/ as well as the URL. */
async function staticPages(): Promise<[string, string][]> {
  const study = (await readdir(join(root, "dist", "work"))).filter((f) => f.endsWith(".html")).sort()[0]!;
  return [
    ["home", "/"],
    ["services", "/services"],
    ["offers", "/offers"],
    ["case-study index", "/work"],
    ["case study", `/work/${study.replace(/\.html$/, "")}`],
    ["contact", "/contact"],
    ["developers", "/developers"],
    ["developer guide page", "/developers/api"],
  ];
}

/** A consent screen URL: a public client registered with a loopback redirect, then an authorization request with PKCE. */
async function consentUrl(base: string): Promise<string> {
  const as = await discover(base);
  const client = await register(as, {
    client_name: "Lighthouse audit",
    redirect_uris: ["http://127.0.0.1/callback"],
    token_endpoint_auth_method: "none",
  });
  return authorizeUrl(as, {
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1/callback",
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    state: oauth.generateRandomState(),
    scope: "svc:read svc:brief",
    resource: `${base}/mcp`,
  }).href;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

interface Bytes {
  raw: number;
  transferred: number;
}
const kinds = { Document: "HTML", Stylesheet: "CSS", Script: "JS", Font: "fonts", Image: "images" } as Record<string, string>;

/** The bytes a page loads by kind, from Lighthouse's own network record (transferred = as sent, compressed). */
function bytesByKind(lhr: Lhr): Record<string, Bytes> {
  const result: Record<string, Bytes> = {};
  for (const kind of [...Object.values(kinds), "other"]) result[kind] = { raw: 0, transferred: 0 };
  const items = (lhr.audits["network-requests"]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  for (const item of items) {
    const kind = kinds[String(item.resourceType)] ?? "other";
    result[kind]!.raw += Number(item.resourceSize ?? 0);
    result[kind]!.transferred += Number(item.transferSize ?? 0);
  }
  return result;
}

/** One Lighthouse run, repeated (at most twice more) when Lighthouse itself fails, as with its occasional NO_NAVSTART. */
async function audit(type: string, target: () => Promise<string>, port: number, config: object | undefined) {
  for (let attempt = 1; ; attempt++) {
    const url = await target();
    const result = await lighthouse(url, { port, output: "json", logLevel: "error" }, config as never);
    if (!result) throw new Error(`Lighthouse returned nothing for ${type}`);
    const { runtimeError } = result.lhr;
    if (!runtimeError) return { lhr: result.lhr, target: url };
    if (attempt === 3) throw new Error(`Lighthouse could not audit ${type}: ${runtimeError.message}`);
    console.log(`    (${type}: Lighthouse failed with ${runtimeError.code}; running it again)`);
  }
}

function failingAudits(lhr: Lhr): string[] {
  const lines: string[] = [];
  for (const id of categories) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (ref.weight === 0 && audit.scoreDisplayMode !== "binary") continue;
      lines.push(`    ${id}: ${audit.id} (${audit.score}) ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ""}`);
    }
  }
  return lines;
}

const score = (lhr: Lhr, id: (typeof categories)[number]) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const kb = (n: number) => (n / 1024).toFixed(1);

interface Row {
  type: string;
  scores: number[];
  bytes: Record<string, Bytes>;
  inlineCss: number;
  tokens?: { html: number; markdown: number; header: number; negotiated: number };
}

export default async function pagesBench() {
  const userDataDir = await mkdtemp(join(tmpdir(), "frontdoor-bench-chromium-"));
  // The runtime builds dist/ if it is missing or stale, as npm start does; the static server then serves that build.
  const runtime = await startIsolatedRuntime(root);
  const site = await serveStaticSite(root);
  const chrome = await chromeLauncher.launch({
    chromePath,
    userDataDir,
    ignoreDefaultFlags: true,
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  // The header as both routes serve it: the twin's own URL (static, dist/_headers) and the page negotiated (edge).
  const tokenHeader = async (url: string, accept?: string) => {
    const response = await fetch(url, { headers: accept ? { accept } : {} });
    await response.body?.cancel();
    return Number(response.headers.get("x-markdown-tokens") ?? NaN);
  };
  try {
    console.log(
      `static pages: ${site.url} (dist/ with netlify.toml and _headers applied, Brotli), consent screen: ${runtime.url} (netlify dev)`,
    );
    console.log(
      `${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `Chromium: ${chromePath}; Lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}\n`,
    );
    const targets: [string, string, string | undefined][] = [
      ...(await staticPages()).map(([type, path]) => [type, `${site.url}${path}`, path] as [string, string, string]),
      ["consent screen", await consentUrl(runtime.url), undefined],
    ];
    const modes: [string, object | undefined][] = [["mobile", undefined]];
    if (process.env.PAGES_BENCH_DESKTOP) modes.push(["desktop", desktopConfig]);

    for (const [mode, config] of modes) {
      console.log(`### Lighthouse, ${mode}${mode === "mobile" ? " (simulated throttling, the default)" : ""}\n`);
      const rows: Row[] = [];
      for (const [type, url, path] of targets) {
        // A fresh authorization request per run: the consent screen is per request.
        const { lhr, target } = await audit(
          type,
          () => (path === undefined ? consentUrl(runtime.url) : Promise.resolve(url)),
          chrome.port,
          config,
        );
        const row: Row = { type, scores: categories.map((c) => score(lhr, c)), bytes: bytesByKind(lhr), inlineCss: 0 };
        const html =
          path === undefined
            ? await (await fetch(target)).text()
            : await readFile(join(root, "dist", `${path === "/" ? "/index" : path}.html`), "utf8");
        row.inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].reduce((n, m) => n + Buffer.byteLength(m[1]!), 0);
        if (path !== undefined) {
          const twinPath = path === "/" ? "/index.md" : `${path}.md`;
          const markdown = await readFile(join(root, "dist", twinPath), "utf8");
          row.tokens = {
            html: countTokens(html),
            markdown: countTokens(markdown),
            header: await tokenHeader(`${site.url}${twinPath}`),
            negotiated: await tokenHeader(`${runtime.url}${path}`, "text/markdown"),
          };
        }
        rows.push(row);
        const failing = failingAudits(lhr);
        const metrics = [
          "first-contentful-paint",
          "largest-contentful-paint",
          "total-blocking-time",
          "cumulative-layout-shift",
          "speed-index",
        ]
          .map(
            (id) =>
              `${id
                .split("-")
                .map((w) => w[0])
                .join("")
                .toUpperCase()} ${lhr.audits[id]?.displayValue ?? "?"}`,
          )
          .join(", ");
        console.log(`${type.padEnd(18)} ${categories.map((c, i) => `${c} ${row.scores[i]}`).join("  ")}   (${metrics})`);
        console.log(failing.length ? failing.join("\n") : "    no failing audit");
      }
      printBytes(rows);
      if (mode === "mobile") printTokens(rows);
    }
    await printBudgets();
  } finally {
    chrome.kill();
    await site.close();
    await runtime.stop();
    await rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function printBytes(rows: Row[]) {
  console.log(`\nbytes per page type, KiB raw / transferred (Brotli for the static pages; the consent screen as netlify dev sends it)`);
  console.log(
    `${"page type".padEnd(18)} ${["HTML", "(inline CSS)", "CSS", "JS", "fonts", "images", "other"].map((h) => h.padStart(14)).join("")}`,
  );
  for (const row of rows) {
    const cells = ["HTML", "CSS", "JS", "fonts", "images", "other"].map((k) => `${kb(row.bytes[k]!.raw)}/${kb(row.bytes[k]!.transferred)}`);
    cells.splice(1, 0, kb(row.inlineCss));
    console.log(`${row.type.padEnd(18)} ${cells.map((c) => c.padStart(14)).join("")}`);
  }
  const withJs = rows.filter((r) => r.bytes.JS!.raw > 0).map((r) => r.type);
  console.log(`client JavaScript: ${withJs.length ? withJs.join(", ") : "none on any page"}`);
}

function printTokens(rows: Row[]) {
  console.log(`\nMarkdown twin against HTML, o200k_base tokens (js-tiktoken); X-Markdown-Tokens as served at the twin's URL and`);
  console.log(`negotiated (Accept: text/markdown, the edge function through netlify dev), with its error against the real count`);
  console.log(
    `${"page type".padEnd(18)} ${["HTML", "Markdown", "MD/HTML", "header .md", "error", "negotiated", "error"].map((h) => h.padStart(12)).join("")}`,
  );
  for (const { type, tokens } of rows) {
    if (!tokens) {
      console.log(`${type.padEnd(18)} ${"(no twin: a function's page)".padStart(13)}`);
      continue;
    }
    const error = (header: number) => {
      const percent = ((header - tokens.markdown) / tokens.markdown) * 100;
      return `${percent >= 0 ? "+" : ""}${percent.toFixed(1)}%`;
    };
    const ratio = (tokens.markdown / tokens.html).toFixed(3);
    const cells = [tokens.html, tokens.markdown, ratio, tokens.header, error(tokens.header), tokens.negotiated, error(tokens.negotiated)];
    console.log(`${type.padEnd(18)} ${cells.map((c) => String(c).padStart(12)).join("")}`);
  }
}

/** Every page of dist/ against the budgets: its HTML Brotli-compressed as the static server sends it, its twin's tokens. */
async function printBudgets() {
  const dist = join(root, "dist");
  const pages = (await readdir(dist, { recursive: true }))
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => f.replace(/\.html$/, ""));
  const budget = `${kb(pageBudgets.htmlBrotliBytes)} KiB, ${pageBudgets.twinTokens} tokens`;
  console.log(`\nevery page against its budget (${budget}): HTML KiB sent (Brotli), twin tokens`);
  for (const page of pages) {
    const html = await readFile(join(dist, `${page}.html`));
    const twin = await readFile(join(dist, `${page}.md`), "utf8").catch(() => undefined);
    const sent = brotliBytes(html);
    const tokens = twin === undefined ? undefined : countTokens(twin);
    const over = sent > pageBudgets.htmlBrotliBytes || (tokens ?? 0) > pageBudgets.twinTokens ? "  OVER" : "";
    console.log(`${`/${page}`.padEnd(34)} ${kb(sent).padStart(8)} ${String(tokens ?? "-").padStart(8)}${over}`);
  }
}
