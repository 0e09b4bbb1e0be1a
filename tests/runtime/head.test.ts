import { beforeAll, describe, expect, inject, it } from "vitest";
import { restOperations } from "../../src/a2a/rest-routes.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { newBookingId } from "../../src/booking/store.ts";
import { a2aPath, a2aRestPath, bookingsPath, oauthPaths, resourcePaths, routeMethods } from "../../src/paths.ts";
import { freshBrief } from "../support/briefs.ts";
import { authorizeUrl, clientCredentialsToken, discover, register } from "../support/oauth-client.ts";

/**
 * HEAD wherever GET is (RFC 9110 §9.3.2), through npm start: every GET route of every door's route table (`routeMethods`,
 * /api's routes, A2A's HTTP+JSON operations) answers HEAD with GET's status and headers and no body, and every 405 that
 * names GET in its Allow names HEAD too.
 */
const base = inject("baseUrl");

/** What differs between two answers to the same request whatever the method: the time, the quota left, the framing. */
const perAnswer = new Set([
  "date",
  "x-nf-request-id",
  "x-nf-start-timestamp",
  "x-nf-fetch-timing",
  "ratelimit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "set-cookie",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);
const comparable = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !perAnswer.has(name)));

interface Walked {
  path: string;
  headers: Record<string, string>;
}
let walk: Walked[];

beforeAll(async () => {
  const as = await discover(base);
  const [api, a2a, client] = await Promise.all([
    clientCredentialsToken(base, "svc:read"),
    clientCredentialsToken(base, "svc:brief", `${base}${a2aPath}`),
    register(as, { redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" }),
  ]);
  const caseStudies = (await (await fetch(`${base}${resourcePaths["case-studies"]}`)).json()) as { case_studies: { id: string }[] };
  const a2aHeaders = { "A2A-Version": "1.0", authorization: `Bearer ${a2a.token}` };
  // A task of the caller's own: a dry run of a brief.
  const sent = await fetch(`${base}${a2aRestPath}/message:send`, {
    method: "POST",
    headers: { ...a2aHeaders, "content-type": "application/json" },
    body: JSON.stringify({
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ data: freshBrief({ dry_run: true }) }],
        metadata: { skillId: "svc-project-brief" },
      },
    }),
  });
  const taskId = ((await sent.json()) as { task: { id: string } }).task.id;
  expect(taskId).toBeTruthy();

  const ids: Record<string, string> = {
    [`${resourcePaths["case-studies"]}/:id`]: caseStudies.case_studies[0]!.id,
    [`${bookingsPath}/:id`]: newBookingId(),
  };
  const consent = authorizeUrl(as, {
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1:9/cb",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  });
  const doorPaths = Object.entries(routeMethods)
    .filter(([, methods]) => (methods as readonly string[]).includes("GET"))
    .map(([path]) => (path === oauthPaths.authorize ? `${consent.pathname}${consent.search}` : path));
  walk = [
    ...doorPaths.map((path) => ({ path, headers: path === a2aRestPath ? a2aHeaders : {} })),
    ...apiRoutes
      .filter((route) => route.methods.includes("GET"))
      .map((route) => ({
        path: route.path.replace(":id", ids[route.path] ?? ""),
        headers: { authorization: `Bearer ${api.token}` },
      })),
    ...restOperations()
      .filter((operation) => operation.method === "GET")
      .map((operation) => ({ path: operation.path.replaceAll("{id}", taskId), headers: a2aHeaders })),
  ];
});

describe("HEAD", () => {
  it("answers every GET route of the route tables with GET's status and headers, and no body", async () => {
    expect(walk.length).toBeGreaterThan(15);
    const differing = [];
    for (const { path, headers } of walk) {
      // Uncompressed, so that both answers are the same representation (netlify dev compresses a GET's, not a HEAD's).
      const get = await fetch(`${base}${path}`, { headers: { ...headers, "accept-encoding": "identity" } });
      await get.body?.cancel();
      const head = await fetch(`${base}${path}`, { method: "HEAD", headers: { ...headers, "accept-encoding": "identity" } });
      const answers = { get: [get.status, comparable(get.headers), ""], head: [head.status, comparable(head.headers), await head.text()] };
      const names = new Set([...Object.keys(answers.get[1] as object), ...Object.keys(answers.head[1] as object)]);
      const headerDiff = [...names].filter(
        (n) => (answers.get[1] as Record<string, string>)[n] !== (answers.head[1] as Record<string, string>)[n],
      );
      if (get.status !== head.status || headerDiff.length > 0 || answers.head[2] !== "")
        differing.push({
          path,
          status: [get.status, head.status],
          headers: headerDiff.map((n) => [
            n,
            (answers.get[1] as Record<string, string>)[n],
            (answers.head[1] as Record<string, string>)[n],
          ]),
          body: answers.head[2],
        });
    }
    expect(differing).toEqual([]);
  });

  it("is named in every Allow that names GET: a 405 at each of those routes", async () => {
    const refusals = [];
    for (const { path, headers } of walk) {
      const refused = await fetch(`${base}${path}`, { method: "DELETE", headers });
      await refused.body?.cancel();
      refusals.push({ path, status: refused.status, allow: refused.headers.get("allow")?.split(", ") });
    }
    expect(refusals).toEqual(walk.map(({ path }) => ({ path, status: 405, allow: expect.arrayContaining(["GET", "HEAD"]) })));
  });
});
