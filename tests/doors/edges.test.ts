import { describe, expect, it } from "vitest";
import { methodRefusal } from "../../scripts/runtime/front-refusals.ts";
import { mcpHeaders } from "../support/calls.ts";
import { doorPaths } from "../support/door-paths.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * The doors' edges in-process: what npm start's front answers itself for a method no function can be handed
 * (scripts/runtime/front-refusals.ts) is each door's own answer to a method it does not take; a path no endpoint serves
 * is the door's not_found in its format, whatever the method; a charset on a JSON body, which means nothing for JSON
 * (RFC 8259 §11), changes nothing. tests/runtime/front.test.ts sends one of each through npm start.
 */
const { d } = fileDeployment("local");

/** What names the condition in each door's format: a problem's code, an OAuth error, a JSON-RPC error's code or google.rpc status. */
function conditionIn(text: string): unknown {
  const body = JSON.parse(text) as { code?: string; error?: string | { code?: number; status?: string } };
  return body.code ?? (typeof body.error === "string" ? body.error : { code: body.error?.code, status: body.error?.status });
}

describe("a method no function can be handed (a fetch Request refuses TRACE and TRACK; Node's parser, any method it does not know)", () => {
  it.each(["TRACE", "TRACK", "FOO"])(
    "%s is refused by the front on every door's path as the door refuses DELETE there: 405, its Allow, its format",
    async (method) => {
      for (const path of doorPaths) {
        const refused = await methodRefusal(method, new URL(`${d.baseUrl}${path}`));
        const deleted = await d.fetchFrom()(`${d.baseUrl}${path}`, { method: "DELETE" });
        expect([refused.status, deleted.status], path).toEqual([405, 405]);
        expect(refused.headers.get("allow"), path).toBe(deleted.headers.get("allow"));
        expect(refused.headers.get("content-type"), path).toBe(deleted.headers.get("content-type"));
        const text = await refused.text();
        expect(conditionIn(text), path).toEqual(conditionIn(await deleted.text()));
        expect(text, path).toContain(`${method} is not supported on ${path}.`);
      }
    },
  );
});

describe("paths no endpoint serves", () => {
  it.each([
    ["/oauth/nope", "application/json", { error: "invalid_request" }],
    ["/oauth/token/", "application/json", { error: "invalid_request" }],
    ["/mcp/nope", "application/json", { error: { code: -32089 } }],
    ["/a2a/v1/nope", "application/json", { error: { code: -32089 } }],
    ["/a2a/v1/rest/", "application/a2a+json", { error: { code: 404, status: "NOT_FOUND" } }],
  ])("%s is the door's not_found, in its format, whatever the method", async (path, type, body) => {
    for (const method of ["GET", "POST"]) {
      const res = await d.fetchFrom()(`${d.baseUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect([res.status, res.headers.get("content-type")?.split(";")[0]], `${method} ${path}`).toEqual([404, type]);
      expect(await res.json(), `${method} ${path}`).toMatchObject(body);
    }
  });
});

describe("a charset on a JSON body", () => {
  it("changes nothing: each door reads the body as UTF-8, as it reads one without", async () => {
    const doors = [
      ["/api/v1/briefs", "klingon", { authorization: `Bearer ${await d.token("svc:brief")}` }],
      ["/mcp", "latin1", mcpHeaders],
      ["/a2a/v1", "klingon", { "a2a-version": "1.0" }],
    ] as const;
    for (const [path, charset, headers] of doors) {
      const sent = (type: string) =>
        d.fetchFrom()(`${d.baseUrl}${path}`, { method: "POST", headers: { ...headers, "content-type": type }, body: "{}" });
      const [plain, withCharset] = [await sent("application/json"), await sent(`application/json; charset=${charset}`)];
      expect(withCharset.status, path).not.toBe(415);
      expect(withCharset.status, path).toBe(plain.status);
      expect(conditionIn(await withCharset.text()), path).toEqual(conditionIn(await plain.text()));
    }
  });
});
