import { describe, expect, it } from "vitest";
import { serverCard } from "../../src/mcp/card.ts";
import { modernProtocolVersions } from "../../src/mcp/versions.ts";
import { json } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * The server card as functions/mcp.ts serves it, and what the server it describes says about itself, in-process: the
 * card may not claim a name, version or revision the server does not report. tests/runtime/discovery.test.ts follows
 * the AI catalog to the card and the server through the local runtime.
 */
type Json = Record<string, any>;
const d = fileDeployment("local").d;

const card = () => serverCard(d.resources);
const rpc = async (body: object, headers: Record<string, string>) =>
  (await (await d.mcp(json(body, { accept: "application/json, text/event-stream", ...headers }))).json()) as Json;

describe("/mcp/server-card", () => {
  it("is the card the build writes, with CORS, cache headers, a strong ETag and 304 on revalidation", async () => {
    const res = await d.mcp({ method: "GET" }, undefined, "/mcp/server-card");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(await res.json()).toEqual(card());
    const again = await d.mcp({ method: "GET", headers: { "If-None-Match": etag } }, undefined, "/mcp/server-card");
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
  });
});

describe("the server the card describes", () => {
  it("accepts every 2025-era revision the card lists by initialize, and reports the card's name, title and version", async () => {
    const { name, title, version, remotes } = card();
    const legacy = remotes[0]!.supportedProtocolVersions.filter((v) => !modernProtocolVersions.includes(v));
    expect(legacy).toContain("2025-11-25");
    for (const protocolVersion of legacy) {
      const { result } = await rpc(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "card-test", version: "1.0.0" } },
        },
        { "mcp-protocol-version": protocolVersion },
      );
      expect(result.protocolVersion, protocolVersion).toBe(protocolVersion);
      expect(name.split("/")[1]).toBe(result.serverInfo.name);
      expect({ title, version }).toEqual({ title: result.serverInfo.title, version: result.serverInfo.version });
    }
  });

  it("declares its extension (Skills) in server/discover, and the card repeats it under its _meta, the card's extension point", async () => {
    const { result } = await rpc(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    );
    expect(Object.keys(result.capabilities.extensions)).toEqual(["io.modelcontextprotocol/skills"]);
    const { name, _meta } = card() as { name: string; _meta: Record<string, unknown> };
    expect(_meta[`${name.split("/")[0]}/extensions`]).toEqual(result.capabilities.extensions);
    // No field of the card's own schema claims capabilities: the card stays identity and how to connect.
    expect(Object.keys(card())).not.toContain("capabilities");
  });

  it("lists the card's 2026-07-28 revisions in server/discover, with the card's serverInfo", async () => {
    const { name, version, remotes } = card();
    const modern = remotes[0]!.supportedProtocolVersions.filter((v) => modernProtocolVersions.includes(v));
    const { result } = await rpc(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: {
          _meta: { "io.modelcontextprotocol/protocolVersion": modern[0], "io.modelcontextprotocol/clientCapabilities": {} },
        },
      },
      { "mcp-protocol-version": modern[0]!, "mcp-method": "server/discover" },
    );
    expect(result.supportedVersions).toEqual(modern);
    expect(result._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: name.split("/")[1], version });
  });
});
