import { describe, expect, inject, it } from "vitest";
import { deleteRefused, headUnlikeGet } from "../support/head.ts";

/**
 * HEAD wherever GET is (RFC 9110 §9.3.2), through npm start, once for each way netlify dev serves a GET route, which
 * only it shows: an /api read (the edge gateway, then a static file), a function behind the gateway (handed the GET),
 * and a function netlify dev calls itself. Each answers HEAD with GET's status and headers and no body, and DELETE with
 * a 405 whose Allow names both. tests/doors/head.test.ts walks every GET route of every route table in-process.
 */
const base = inject("baseUrl");
const kinds = ["/api/v1/company", "/api/v1/free-times?time_zone=UTC", "/a2a/v1/rest"];

describe("HEAD", () => {
  it("answers a GET route of each kind with GET's status and headers, and no body", async () => {
    const differing = [];
    for (const path of kinds) differing.push(await headUnlikeGet(fetch, `${base}${path}`));
    expect(differing.filter(Boolean)).toEqual([]);
  });

  it("is named in the Allow of each kind's 405", async () => {
    const refusals = [];
    for (const path of kinds) refusals.push(await deleteRefused(fetch, `${base}${path}`));
    expect(refusals).toEqual(kinds.map((path) => ({ url: `${base}${path}`, status: 405, allow: expect.arrayContaining(["GET", "HEAD"]) })));
  });
});
