import { beforeAll, describe, expect, it } from "vitest";
import { restOperations } from "../../src/a2a/rest-routes.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { newBookingId } from "../../src/booking/store.ts";
import { a2aRestPath, bookingsPath, oauthPaths, resourcePaths, routeMethods } from "../../src/paths.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileDeployment } from "../support/deployment.ts";
import { deleteRefused, headUnlikeGet } from "../support/head.ts";
import { authorizeUrl, discover, register } from "../support/oauth-client.ts";

/**
 * HEAD wherever GET is (RFC 9110 §9.3.2), in-process: every GET route of every door's route table (`routeMethods`,
 * /api's routes, A2A's HTTP+JSON operations) answers HEAD with GET's status and headers and no body, and every 405 that
 * names GET in its Allow names HEAD too. tests/runtime/head.test.ts asks one route of each kind through npm start.
 */
const { d } = fileDeployment("local");

interface Walked {
  path: string;
  headers: Record<string, string>;
}
let walk: Walked[];

beforeAll(async () => {
  const as = await discover(d.baseUrl, d.fetchFrom());
  const client = await register(as, { redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" }, d.fetchFrom());
  const caseStudies = (await (await d.api(resourcePaths["case-studies"])).json()) as { case_studies: { id: string }[] };
  const a2aHeaders = { "A2A-Version": "1.0", authorization: `Bearer ${await d.token("svc:brief")}` };
  // A task of the caller's own: a dry run of a brief.
  const sent = await d.fetchFrom()(`${d.baseUrl}${a2aRestPath}/message:send`, {
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
  const api = { authorization: `Bearer ${await d.token("svc:read")}` };
  walk = [
    ...doorPaths.map((path) => ({ path, headers: path === a2aRestPath ? a2aHeaders : {} })),
    ...apiRoutes
      .filter((route) => route.methods.includes("GET"))
      .map((route) => ({ path: route.path.replace(":id", ids[route.path] ?? ""), headers: api })),
    ...restOperations()
      .filter((operation) => operation.method === "GET")
      .map((operation) => ({ path: operation.path.replaceAll("{id}", taskId), headers: a2aHeaders })),
  ];
});

describe("HEAD", () => {
  it("answers every GET route of the route tables with GET's status and headers, and no body", async () => {
    expect(walk.length).toBeGreaterThan(15);
    const differing = [];
    // Each route from an address of its own, so that no quota of the walk's is reached.
    for (const { path, headers } of walk) differing.push(await headUnlikeGet(d.fetchFrom(), `${d.baseUrl}${path}`, headers));
    expect(differing.filter(Boolean)).toEqual([]);
  });

  it("is named in every Allow that names GET: a 405 at each of those routes", async () => {
    const refusals = [];
    for (const { path, headers } of walk) refusals.push(await deleteRefused(d.fetchFrom(), `${d.baseUrl}${path}`, headers));
    expect(refusals).toEqual(
      walk.map(({ path }) => ({ url: `${d.baseUrl}${path}`, status: 405, allow: expect.arrayContaining(["GET", "HEAD"]) })),
    );
  });
});
