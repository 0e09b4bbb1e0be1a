import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { registryNamePattern, settingsFrom } from "../../src/config/settings.ts";
import { serverCard, serverDescription } from "../../src/mcp/card.ts";
import { registryAuthBody, registryServerJson, serverJsonSchemaUrl } from "../../src/mcp/registry.ts";
import { prebuiltResources } from "../../src/resources/prebuilt.ts";
import { ContentError } from "../../src/site/content-error.ts";
import { buildSite } from "../../src/site/model.ts";
import { loadContentDir } from "../support/content.ts";
import { serverJsonProblems as problems, serverJsonSchema as schema } from "../support/mcp-registry.ts";

const content = await loadContentDir("content");
const cardFor = (baseUrl: string) => serverCard(prebuiltResources(buildSite(content, baseUrl)));

/** What `openssl genpkey -algorithm Ed25519` and `openssl pkey -pubout -outform DER | tail -c 32 | base64` make. */
function ed25519Pair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicKey: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64") };
}

describe("server.json for the MCP Registry", () => {
  it("is valid against the registry's published schema, on a deploy's host and locally", () => {
    expect(schema.$id).toBe(serverJsonSchemaUrl);
    for (const base of ["https://kestrel.studio", "https://www.kestrel.example:8443", "http://localhost:8888"]) {
      const document = registryServerJson(cardFor(base));
      expect(problems(document), base).toEqual([]);
      expect(document.$schema).toBe(serverJsonSchemaUrl);
    }
  });

  it("says what the server card says: name, description, title, version, website, the remote and its header", () => {
    const card = cardFor("https://kestrel.studio");
    const document = registryServerJson(card);
    expect(document).toMatchObject({
      name: card.name,
      description: card.description,
      title: card.title,
      version: card.version,
      websiteUrl: card.websiteUrl,
    });
    expect(document.name).toBe("studio.kestrel/kestrel-studio-facts");
    expect(document.remotes).toEqual([{ type: "streamable-http", url: "https://kestrel.studio/mcp", headers: card.remotes[0]!.headers }]);
    expect(document.remotes[0]!.headers[0]).toMatchObject({
      name: "Authorization",
      value: "Bearer {token}",
      isRequired: false,
      isSecret: true,
    });
    // The card's extension data stays on the card.
    expect(Object.keys(document)).not.toContain("_meta");
  });

  it("takes another name from MCP_REGISTRY_NAME, and refuses one the registry would", () => {
    const card = cardFor("https://kestrel.studio");
    const name = settingsFrom((n) => ({ MCP_REGISTRY_NAME: " io.github.kestrel-studio/facts " })[n]).get("MCP_REGISTRY_NAME");
    const document = registryServerJson(card, name);
    expect(document.name).toBe("io.github.kestrel-studio/facts");
    expect(problems(document)).toEqual([]);
    for (const bad of ["no-slash", "a/b/c", "studio.kestrel/with space", "studio_kestrel/facts", `x/${"y".repeat(199)}`]) {
      expect(() => settingsFrom((n) => ({ MCP_REGISTRY_NAME: bad })[n]).get("MCP_REGISTRY_NAME"), bad).toThrow(
        /^MCP_REGISTRY_NAME must be/,
      );
      expect(problems({ ...document, name: bad }), bad).not.toEqual([]);
    }
    expect(registryNamePattern.test(card.name)).toBe(true);
  });

  it("keeps the description within the registry's 100 characters: the shorter wording for a long name, an error past it", () => {
    expect(serverDescription("Kestrel Studio")).toBe("Public facts about Kestrel Studio and a project-brief tool, over MCP.");
    const long = "A".repeat(50);
    expect(serverDescription(long)).toBe(`Facts about ${long} and a project-brief tool.`);
    // company.yaml's schema admits names up to 60 characters: every one of them fits.
    expect(serverDescription("A".repeat(60)).length).toBeLessThanOrEqual(100);
    // Were the schema to admit longer names, the build would stop naming the file and the field.
    expect(() => serverDescription("A".repeat(80))).toThrow(ContentError);
    expect(() => serverDescription("A".repeat(80))).toThrow(
      /^content\/company\.yaml: name: makes the MCP server's description 118 characters long; .* allow 100: shorten the name by 18 characters$/,
    );
    // The schema does hold the limit: one character more is refused.
    const document = registryServerJson(cardFor("https://kestrel.studio"));
    expect(problems({ ...document, description: "x".repeat(101) })).toEqual(["/description must NOT have more than 100 characters"]);
  });
});

describe("the MCP Registry's proof of the domain", () => {
  it("is the one line the registry parses, with a key that verifies a login's signed timestamp", () => {
    const { publicKey, privateKey } = ed25519Pair();
    const key = settingsFrom((n) => ({ MCP_REGISTRY_AUTH_PUBLIC_KEY: `${publicKey}\n` })[n]).get("MCP_REGISTRY_AUTH_PUBLIC_KEY")!;
    const body = registryAuthBody(key);
    expect(body).toBe(`v=MCPv1; k=ed25519; p=${publicKey}`);
    // As the registry reads it (internal/api/handlers/v0/auth/http.go): the key after p=, 32 bytes once decoded.
    const parsed = /v=MCPv1;\s*k=ed25519;\s*p=([A-Za-z0-9+/=]+)/.exec(body)![1]!;
    const raw = Buffer.from(parsed, "base64");
    expect(raw.length).toBe(32);
    // mcp-publisher login http signs an RFC 3339 timestamp with the private key; the published key verifies it.
    const timestamp = Buffer.from(new Date().toISOString());
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]);
    expect(verify(null, timestamp, createPublicKey({ key: spki, format: "der", type: "spki" }), sign(null, timestamp, privateKey))).toBe(
      true,
    );
  });

  it("refuses a key that is not 32 bytes of base64, naming the variable and how to make one", () => {
    const pem = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA...\n-----END PUBLIC KEY-----";
    const hex = Buffer.alloc(32, 7).toString("hex");
    const short = Buffer.alloc(31, 7).toString("base64");
    for (const bad of [pem, hex, short, "not base64!", `${Buffer.alloc(32, 7).toString("base64")}==`]) {
      expect(() => settingsFrom((n) => ({ MCP_REGISTRY_AUTH_PUBLIC_KEY: bad })[n]).get("MCP_REGISTRY_AUTH_PUBLIC_KEY"), bad).toThrow(
        /^MCP_REGISTRY_AUTH_PUBLIC_KEY must be the base64 of a 32-byte Ed25519 public key: openssl pkey /,
      );
    }
    expect(settingsFrom(() => undefined).get("MCP_REGISTRY_AUTH_PUBLIC_KEY")).toBeUndefined();
    const zeroes = Buffer.alloc(32).toString("base64");
    expect(() => settingsFrom((n) => ({ MCP_REGISTRY_AUTH_PUBLIC_KEY: zeroes })[n]).get("MCP_REGISTRY_AUTH_PUBLIC_KEY")).toThrow(
      /all zeroes/,
    );
  });
});
