import { createHash } from "node:crypto";
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION_ID, SkillsClient, type Skill } from "@modelcontextprotocol/client/ext/skills";
import { describe, expect, it } from "vitest";
import { json, mcpCall } from "../support/calls.ts";
import { fileDeployment } from "../support/deployment.ts";
import { connectMcp, eras } from "../support/mcp-client.ts";
import type { SkillsIndexEntry as IndexEntry } from "../../src/discovery/skills/index.ts";

/**
 * The skills over MCP (the Skills extension, SEP-2640) in-process, through the SDK's own skills client, which checks
 * every file it reads against its entry's size and digest: the same skills as the agent-skills index the site serves,
 * each file the very bytes the site serves under /.well-known/agent-skills/, in both protocol eras.
 * tests/runtime/mcp-skills.test.ts compares the same through the local runtime.
 */
const { d } = fileDeployment("local");

const get = (path: string) => d.serve(new Request(`${d.baseUrl}${path}`));
const index = async () => ((await (await get("/.well-known/agent-skills/index.json")).json()) as { skills: IndexEntry[] }).skills;
const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
/** A skill's file as the site serves it, by its `skill://` URI. */
const served = async (uri: string) =>
  new Uint8Array(await (await get(`/.well-known/agent-skills/${uri.slice("skill://".length)}`)).arrayBuffer());

describe.each(eras)("a client $mode", (era) => {
  const connect = async () => {
    const client = await connectMcp(`${d.baseUrl}/mcp`, era, { fetch: d.fetchFrom() });
    return { client, skills: new SkillsClient(client) };
  };

  it("is told of the extension with directory reads, beside resources whose list never changes", async () => {
    const { client, skills } = await connect();
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { listChanged: false },
      extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
    });
    await client.close();
  });

  it("lists the index's skills, each SKILL.md with the index's digest, and every file with the bytes the site serves", async () => {
    const { client, skills } = await connect();
    const listing = await skills.list();
    const entries = await index();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.frontmatter.name).sort()).toEqual(entries.map((e) => e.name).sort());
    // 2026-07-28 results carry cache hints (an hour, like the other lists); the 2025 era has none.
    expect({ ttlMs: listing.ttlMs, cacheScope: listing.cacheScope }).toEqual(
      era.era === "modern" ? { ttlMs: 3_600_000, cacheScope: "public" } : { ttlMs: undefined, cacheScope: undefined },
    );
    for (const entry of entries) {
      const skill = listing.skills.find((s) => s.frontmatter.name === entry.name)!;
      expect(skill.uri).toBe(`skill://${entry.name}/SKILL.md`);
      expect(skill.frontmatter).toEqual({ name: entry.name, description: entry.description, license: "CC-BY-4.0" });
      const files = skill.resources as Exclude<Skill["resources"], "dynamic">;
      expect(files.find((f) => f.uri === skill.uri)?.digest, entry.name).toBe(entry.digest);
      // Every file the build writes for the skill, and nothing else.
      expect(files.map((f) => f.uri).sort()).toEqual(
        Object.keys(d.skills)
          .filter((path) => path.startsWith(`${entry.name}/`))
          .map((path) => `skill://${path}`)
          .sort(),
      );
      for (const file of files) {
        const bytes = await served(file.uri);
        expect({ digest: file.digest, size: file.size }, file.uri).toEqual({ digest: digest(bytes), size: bytes.byteLength });
        // Read through resources/read and checked by the client against the entry (SKILL.md's frontmatter too).
        const read = await skills.read(skill, file.uri);
        expect(read.verified).toBe(true);
        expect(read.bytes, file.uri).toEqual(bytes);
      }
    }
    await client.close();
  });

  it("gets one skill by its SKILL.md URI, and refuses a URI it does not serve with -32602", async () => {
    const { client, skills } = await connect();
    const [first] = (await skills.list()).skills;
    const got = await skills.get(first!.uri);
    expect(got.skill).toEqual(first);
    expect(got.ttlMs).toBe(era.era === "modern" ? 3_600_000 : undefined);
    await expect(skills.get("skill://kestrel-studio-nope/SKILL.md")).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("reads each skill's folder: SKILL.md and references/, whose files are the skill's reference files", async () => {
    const { client, skills } = await connect();
    for (const skill of (await skills.list()).skills) {
      const root = skill.uri.slice(0, -"/SKILL.md".length);
      const { resources } = await skills.readDirectory(root);
      expect(resources.map((r) => [r.name, r.mimeType])).toEqual([
        ["SKILL.md", "text/markdown"],
        ["references", DIRECTORY_MIME_TYPE],
      ]);
      const references = (await skills.readDirectory(`${root}/references`)).resources;
      const listed = (skill.resources as { uri: string }[]).map((r) => r.uri).filter((uri) => uri.startsWith(`${root}/references/`));
      expect(references.map((r) => r.uri)).toEqual(listed);
      // SKILL.md names each of them by its relative path.
      const manifest = (await skills.read(skill)).text!;
      for (const uri of listed) expect(manifest).toContain(`(${uri.slice(root.length + 1)})`);
    }
    await client.close();
  });
});

describe("the wire", () => {
  it("declares the extension in the 2025 era's initialize too, with the same capabilities as server/discover", async () => {
    const res = await d.mcp(
      mcpCall("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
    );
    const { result } = (await res.json()) as { result: { capabilities: object; instructions: string } };
    expect(result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
    });
    // The instructions point to the skills, for a client that does not know the extension.
    for (const name of ["a2a", "mcp", "rest-api"]) expect(result.instructions).toContain(`skill://kestrel-studio-${name}/SKILL.md`);
  });

  it("lets a 2026-07-28 client keep a skill's file an hour, as the lists: nothing changes during a deploy", async () => {
    const uri = "skill://kestrel-studio-a2a/references/developer-guide.md";
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await d.mcp(
      json(
        { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri, _meta: envelope } },
        { accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/read", "mcp-name": uri },
      ),
    );
    const { result } = (await res.json()) as { result: { contents: { text: string }[]; ttlMs: number; cacheScope: string } };
    expect(result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(result.contents[0]!.text).toBe(d.skills["kestrel-studio-a2a/references/developer-guide.md"]);
  });
});
