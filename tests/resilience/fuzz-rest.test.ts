import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twins } from "../../src/markdown/twins.ts";
import { buildSite } from "../../src/site/model.ts";

import { serveMarkdownTwin } from "../../src/twins/serve.ts";
import { loadContentDir } from "../support/content.ts";
import { briefBody } from "./support/briefs.ts";
import { redisDatabase } from "./support/databases.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";
import { defaultRuns, defined, fuzz, headerValue, text, token, wire } from "./support/fuzz.ts";
import { checkLeadMail, checkPage, checkProblem, checkVisibleBrief } from "./support/protocols.ts";
import { apiBase, caseStudyResourcePath, resourcePaths } from "../../src/paths.ts";

/** The REST surface (the /api gateway with POST /api/v1/briefs behind it, and the contact form) under generated input. */
let d: Deployment;
let tokens: string[];
beforeAll(async () => {
  // Every lead filed is e-mailed, none held, so that every e-mail's layout is checked.
  d = await startDeployment(redisDatabase["fuzz-rest"], { env: { LEADS_EMAIL_DAILY_LIMIT: "1000000" } });
  tokens = [await d.token("svc:read svc:brief"), await d.token("svc:read"), await d.token("svc:brief")];
});
afterAll(async () => {
  await d.settle();
  await d.close();
});

const methods = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS") },
  { weight: 1, arbitrary: token.filter((m) => !/^(connect|trace|track)$/i.test(m)) },
);

const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "v2",
    "company",
    "offers",
    "case-studies",
    "briefs",
    "openapi.json",
    "prebuilt.json",
    "..",
    ".",
    "%2e%2e",
    "index.html",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const knownPaths = [...Object.values(resourcePaths), `${apiBase}/briefs`, `${apiBase}/openapi.json`, caseStudyResourcePath("x")];
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...knownPaths) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...knownPaths), fc.constantFrom("/", ".json", ".html", "/x", "//", "%00")).map(([p, s]) => p + s),
  },
  { weight: 2, arbitrary: fc.array(segment, { maxLength: 4 }).map((s) => ["/api", ...s].join("/")) },
);
const query = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 3 }).map((q) => {
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : "";
});

const authorization = (pick: number, mutation: string) =>
  pick < tokens.length ? `Bearer ${tokens[pick]}` : pick === tokens.length ? `Bearer ${tokens[0]!.slice(0, -3)}${mutation}` : mutation;

const headers = fc.record(
  {
    accept: fc.oneof(
      fc.constantFrom("application/json", "application/problem+json", "*/*", "text/html", "text/markdown;q=0.9"),
      headerValue,
    ),
    "if-none-match": fc.oneof(fc.constantFrom("*", '"abc"', 'W/"abc"', '"a", "b"'), headerValue),
    origin: fc.oneof(fc.constantFrom("https://studio.example", "https://evil.example", "null"), headerValue),
    "content-type": fc.oneof(
      fc.constantFrom("application/json", "application/merge-patch+json", "text/plain", "application/json; charset=utf-8"),
      headerValue,
    ),
    "idempotency-key": fc.oneof(fc.uuid(), headerValue),
    authorization: fc.tuple(fc.nat({ max: 5 }), headerValue).map(([pick, mutation]) => authorization(pick, mutation)),
  },
  { requiredKeys: [] },
);

// Mostly what a real client sends, so most briefs reach validation and the pipeline.
const validHeaders = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      "content-type": fc.constant("application/json"),
      authorization: fc.nat({ max: 2 }).map((pick) => `Bearer ${tokens[pick === 1 ? 0 : pick]}`),
      "idempotency-key": fc.option(fc.uuid(), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: headers },
);

describe("fuzzing REST", () => {
  it("the /api gateway: any method, path, query and headers", async () => {
    const statuses = new Set<number>();
    // A write with a token that is not one, and a read that any tag matches: at 500 cases, random ones missed the 401
    // about one run in four, and the 304 now and then.
    type Case = [string, string, string, Record<string, string>];
    const badToken: Case = ["POST", "/api/v1/briefs", "", { authorization: "Bearer not-a-token" }];
    const anyTag: Case = ["GET", "/api/v1/company", "", { "if-none-match": "*" }];
    await fuzz(
      "the /api gateway",
      fc.tuple(methods, path, query, headers),
      async ([method, p, q, h]) => {
        const body = method === "GET" || method === "HEAD" ? undefined : "{}";
        statuses.add(await checkProblem(await d.api(`${p}${q}`, { method, headers: h, body }), { head: method === "HEAD" }));
      },
      1,
      [badToken, anyTag],
    );
    // Reads, conditional reads, preflights and every refusal were reached.
    for (const status of [200, 204, 304, 401, 404, 405]) expect(statuses).toContain(status);
  });

  it("POST /api/v1/briefs: bodies, content types, Idempotency-Key and Authorization", async () => {
    const statuses = new Set<number>();
    let invisibleRefused = 0;
    const runs = await fuzz("POST /api/v1/briefs", fc.tuple(wire(briefBody), validHeaders), async ([body, h]) => {
      const res = await d.api(`${apiBase}/briefs`, { method: "POST", headers: defined(h), body });
      const answer = res.clone();
      const status = await checkProblem(res);
      statuses.add(status);
      // Whatever was sent, an accepted brief holds nothing a person would not see.
      if (status === 200 || status === 201) checkVisibleBrief(((await answer.json()) as { brief: Record<string, unknown> }).brief);
      if (status === 422) {
        const { errors = [] } = (await answer.json()) as { errors?: { message: string }[] };
        if (errors.some((e) => e.message.includes("must not contain invisible characters"))) invisibleRefused += 1;
      }
    });
    // Dry runs, filed briefs, and each refusal of the write were reached.
    for (const status of [200, 201, 400, 401, 403, 413, 422]) expect(statuses).toContain(status);
    if (runs >= defaultRuns) expect(invisibleRefused).toBeGreaterThan(0);
  });

  it("POST /contact: form fields, content types and origins", async () => {
    const field = fc.oneof(fc.constantFrom("Ada Lovelace", "ada@engines.example", "growth-site", ""), text);
    const fields = fc.dictionary(
      fc.constantFrom("full_name", "company_name", "work_email", "site_size", "message", "website", "budget_range", "phone", "x"),
      field,
      { maxKeys: 6 },
    );
    const contentType = fc.constantFrom(
      "application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "",
    );
    const statuses = new Set<number>();
    await fuzz(
      "POST /contact",
      fc.tuple(fields, contentType, fc.option(fc.constantFrom("https://studio.example", "https://evil.example"))),
      async ([f, type, origin]) => {
        const headers: Record<string, string> = type ? { "content-type": type } : {};
        if (origin) headers.origin = origin;
        statuses.add(await checkPage(await d.contact({ method: "POST", headers, body: new URLSearchParams(f).toString() })));
      },
      0.5,
    );
    // Filed, refused by origin, unreadable (not a form), and the form again with its errors.
    for (const status of [200, 403, 415, 422]) expect(statuses).toContain(status);
  });

  it("the Markdown negotiation: any method, page path and Accept header", async () => {
    const site = buildSite(await loadContentDir("content"), "https://studio.example");
    const files = new Map(twins(site).map((t) => [t.markdownPath, t.markdown]));
    const fetchStatic = async (path: string) => {
      const markdown = files.get(path);
      return markdown === undefined
        ? new Response(null, { status: 404 })
        : new Response(markdown, { headers: { "x-markdown-tokens": "1" } });
    };
    const pagePaths = [...twins(site).map((t) => t.path), "/index.html", "/offers/", "/offers.md", "/favicon.svg", "/nope", "/work/nope"];
    const accept = fc.oneof(
      fc.constantFrom("text/markdown", "text/markdown;q=0", "text/html, text/markdown;q=0.9", "text/markdown;q=1, text/html;q=1", "*/*"),
      headerValue,
      fc
        .array(fc.tuple(fc.constantFrom("text/markdown", "text/*", "*/*", "text/html"), fc.double({ min: 0, max: 1.5, noNaN: true })), {
          maxLength: 4,
        })
        .map((ranges) => ranges.map(([type, q]) => `${type};q=${q.toFixed(3)}`).join(", ")),
    );
    const answered = new Set<number | undefined>();
    await fuzz(
      "Markdown negotiation",
      fc.tuple(fc.constantFrom("GET", "HEAD", "POST", "OPTIONS"), fc.oneof(fc.constantFrom(...pagePaths), path), accept),
      async ([method, pathname, acceptHeader]) => {
        const request = new Request(`https://studio.example${pathname}`, { method, headers: { accept: acceptHeader } });
        const response = await serveMarkdownTwin(request, fetchStatic);
        answered.add(response?.status);
        if (!response) return;
        expect([200, 404]).toContain(response.status);
        expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
        expect(response.headers.get("vary")).toBe("Accept");
        expect(response.headers.get("x-markdown-tokens")).toBe("1");
        await response.body?.cancel();
      },
    );
    for (const status of [undefined, 200, 404]) expect(answered).toContain(status);
  });

  it("every lead e-mail the fuzzing sent: the studio's lines fixed, everything the person wrote quoted", async () => {
    await d.settle();
    const sent = d.postmark.sent.filter((m) => m.body.Tag === "lead-brief");
    expect(sent.length).toBeGreaterThan(0);
    for (const m of sent) checkLeadMail(m.body);
  });
});
