import { describe, expect, inject, it } from "vitest";
import { registryServerJson } from "../../src/mcp/registry.ts";
import { registryTestPublicKey, serverJsonProblems } from "../support/mcp-registry.ts";

const base = inject("baseUrl");

/** The MCP Registry's two documents as the deploy serves them (the test runtime's build has the domain key). */
describe("the MCP Registry's documents", () => {
  it("server.json is valid for the registry and says what the served server card says", async () => {
    const res = await fetch(`${base}/.well-known/mcp/server.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const serverJson = (await res.json()) as unknown;
    expect(serverJsonProblems(serverJson)).toEqual([]);
    const card = (await (await fetch(`${base}/mcp/server-card`)).json()) as Parameters<typeof registryServerJson>[0];
    expect(serverJson).toEqual(registryServerJson(card));
    expect(serverJson).toMatchObject({ remotes: [{ type: "streamable-http", url: `${base}/mcp` }] });
  });

  it("the proof of the domain is answered directly, 200 and text/plain, to the request the registry makes", async () => {
    const res = await fetch(`${base}/.well-known/mcp-registry-auth`, {
      redirect: "manual",
      headers: { Accept: "text/plain", "User-Agent": "mcp-registry/1.0" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe(`v=MCPv1; k=ed25519; p=${registryTestPublicKey}`);
  });
});
