import { describe, expect, it } from "vitest";
import type { Handler } from "../../src/http/context.ts";
import {
  clientAddressHeader,
  handedOnHeader,
  memoryMemo,
  refusalStatusHeader,
  requestedPath,
  restoredStatus,
  underNetlifyDev,
} from "../../src/http/netlify-dev.ts";

/** The one wrapper for netlify dev's calls again after a 403 or 404 (applied only under netlify dev). */
const context = { ip: "127.0.0.1", waitUntil: () => {} };

function door() {
  const calls: string[] = [];
  const handler: Handler = async (request) => {
    const path = new URL(request.url).pathname;
    calls.push(path);
    if (path === "/mcp" && request.headers.get("authorization") === "Bearer read-only")
      return Response.json({ refused: path, call: calls.length }, { status: 403, headers: { "WWW-Authenticate": "Bearer error" } });
    if (path === "/ok") return new Response("fine");
    return Response.json({ missing: path }, { status: 404 });
  };
  return { calls, wrapped: underNetlifyDev(handler, memoryMemo()) };
}

const post = (path: string, auth = "Bearer read-only", body = '{"jsonrpc":"2.0"}') =>
  new Request(`http://localhost:8888${path}`, { method: "POST", headers: { authorization: auth }, body });

describe("netlify dev's calls again after a refusal", () => {
  it("are answered with the first refusal, unchanged, without running the door again", async () => {
    const { calls, wrapped } = door();
    const first = await wrapped(post("/mcp"), context);
    expect(first.status).toBe(403);
    const body = await first.text();
    for (const variant of ["/mcp.html", "/mcp.htm", "/mcp/index.html", "/mcp/index.htm"]) {
      const again = await wrapped(post(variant), context);
      expect(again.status).toBe(403);
      expect(again.headers.get("www-authenticate")).toBe("Bearer error");
      expect(await again.text()).toBe(body);
    }
    expect(calls).toEqual(["/mcp"]);
  });

  it("keep a refusal only for the same request: another body or token runs the door for the path asked for", async () => {
    const { calls, wrapped } = door();
    await wrapped(post("/mcp"), context);
    const other = await wrapped(post("/mcp.html", "Bearer read-only", '{"other":1}'), context);
    expect(other.status).toBe(403);
    expect(calls).toEqual(["/mcp", "/mcp"]);
  });

  it("forget the refusal after the last variant", async () => {
    const { calls, wrapped } = door();
    await wrapped(post("/mcp"), context);
    await wrapped(post("/mcp/index.htm"), context);
    await wrapped(post("/mcp.html"), context);
    expect(calls).toEqual(["/mcp", "/mcp"]);
  });

  it("leave answers other than 403 and 404 alone", async () => {
    const { calls, wrapped } = door();
    expect(await (await wrapped(new Request("http://localhost:8888/ok"), context)).text()).toBe("fine");
    expect(calls).toEqual(["/ok"]);
  });

  it("name the path the client asked for", () => {
    expect(requestedPath("/api/v1/briefs/index.htm")).toEqual({ path: "/api/v1/briefs", retry: true, last: true });
    expect(requestedPath("/oauth/authorize.html")).toEqual({ path: "/oauth/authorize", retry: true, last: false });
    expect(requestedPath("/api/v1/offers")).toEqual({ path: "/api/v1/offers", retry: false, last: false });
  });
});

describe("an edge function handing a request on with next() under netlify dev", () => {
  /** What netlify dev does between the two: hands the function's answer back, unless it is a 403 or 404 to call again. */
  function runtime(functionDoor: Handler) {
    const seen: { marked: boolean; status: number }[] = [];
    const fn = underNetlifyDev(functionDoor, memoryMemo());
    const next = async (request: Request) => {
      const response = await fn(request, context);
      seen.push({ marked: request.headers.has(handedOnHeader), status: response.status });
      return response;
    };
    // A gateway: hands every request on and labels the answer, as src/api/gateway.ts does.
    const gateway: Handler = async (request, { next: handOn }) => {
      const answer = await handOn!(request);
      const out = new Response(answer.body, answer);
      out.headers.set("X-Gateway", "seen " + answer.status);
      return out;
    };
    const edge = underNetlifyDev(gateway, memoryMemo());
    return { seen, send: (request: Request) => edge(request, { ...context, next }) };
  }

  it("gets the function's refusal as a status netlify dev does not call again, and gives its door the real one", async () => {
    const { calls, wrapped } = door();
    const { seen, send } = runtime(wrapped);
    const response = await send(post("/mcp"));
    expect(seen).toEqual([{ marked: true, status: 200 }]);
    expect(response.status).toBe(403);
    expect(response.headers.get("x-gateway")).toBe("seen 403");
    expect(response.headers.get("www-authenticate")).toBe("Bearer error");
    expect(response.headers.has(refusalStatusHeader)).toBe(false);
    expect(await response.json()).toEqual({ refused: "/mcp", call: 1 });
    expect(calls).toEqual(["/mcp"]);
  });

  it("carries a 404 the same way and leaves other answers alone", async () => {
    const { wrapped } = door();
    const { seen, send } = runtime(wrapped);
    const missing = await send(new Request("http://localhost:8888/gone"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ missing: "/gone" });
    const fine = await send(new Request("http://localhost:8888/ok"));
    expect(fine.status).toBe(200);
    expect(fine.headers.get("x-gateway")).toBe("seen 200");
    expect(seen.map((s) => s.status)).toEqual([200, 200]);
  });

  it("answers netlify dev's calls again of the edge function itself from its memo", async () => {
    const { calls, wrapped } = door();
    const { seen, send } = runtime(wrapped);
    await send(post("/mcp"));
    const again = await send(post("/mcp.html"));
    expect(again.status).toBe(403);
    expect(seen).toHaveLength(1);
    expect(calls).toEqual(["/mcp"]);
  });
});

describe("restoredStatus", () => {
  it("gives back only a 403 or 404 carried by a 200", () => {
    expect([restoredStatus(200, "403"), restoredStatus(200, "404")]).toEqual([403, 404]);
    expect([restoredStatus(200, null), restoredStatus(200, "500"), restoredStatus(201, "403"), restoredStatus(200, "x")]).toEqual([
      200, 200, 201, 200,
    ]);
  });
});

describe("the client's address under netlify dev", () => {
  it("is the one npm start's front passes, else the connection's", async () => {
    const seen: string[] = [];
    const wrapped = underNetlifyDev(async (_, { ip }) => (seen.push(ip), new Response("fine")), memoryMemo());
    await wrapped(new Request("http://localhost:8888/ok", { headers: { [clientAddressHeader]: "2001:db8::7" } }), context);
    await wrapped(new Request("http://localhost:8888/ok"), context);
    expect(seen).toEqual(["2001:db8::7", "127.0.0.1"]);
  });
});
