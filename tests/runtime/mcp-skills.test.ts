import { createHash } from "node:crypto";
import { SkillsClient, type Skill } from "@modelcontextprotocol/client/ext/skills";
import { Redis } from "@upstash/redis";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { connectMcp, eras } from "../support/mcp-client.ts";
import type { SkillsIndexEntry as IndexEntry } from "../../src/discovery/skills/index.ts";

/**
 * The skills as an agent finds them through the local runtime, over MCP (the Skills extension, through the SDK's own
 * skills client) and over HTTP (the agent-skills index and the files beside it): the same skills, every file with the
 * digest of the bytes the site serves, as the deploy bundles them (functions/mcp.ts's prebuilt-skills.json, which the
 * site must not serve) and publishes them (dist/.well-known/agent-skills/), and the reference files what the site
 * publishes. tests/doors/mcp-skills.test.ts holds the extension's methods to the spec in-process, in both eras, and
 * reads every file through the skills client, which checks it against its digest.
 */
const base = inject("baseUrl");
const store = new Redis({ url: inject("store").url, token: inject("store").token, enableTelemetry: false });

// The emulator gives every client 127.0.0.1: each test starts from a fresh /mcp quota (files run one at a time).
beforeEach(async () => {
  const keys = await store.keys("rl:mcp:*");
  if (keys.length > 0) await store.del(...keys);
});

const indexUrl = `${base}/.well-known/agent-skills/index.json`;
const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const bytesAt = async (url: string) => {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};
/** Where the site serves a skill's file: its `skill://<name>/<path>` under the index's folder. */
const httpUrl = (uri: string) => new URL(uri.slice("skill://".length), indexUrl).href;

describe("a v2 client pinned to 2026-07-28, given only /mcp", () => {
  it("lists the index's skills, every file with the digest of the bytes the site serves, the references what it publishes", async () => {
    const client = await connectMcp(
      `${base}/mcp`,
      eras.find((e) => e.era === "modern")!,
    );
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const listed = (await skills.list()).skills;
    const index = ((await (await fetch(indexUrl)).json()) as { skills: IndexEntry[] }).skills;
    expect(listed.map((s) => s.frontmatter.name).sort()).toEqual(index.map((e) => e.name).sort());
    for (const entry of index) {
      const skill = listed.find((s) => s.frontmatter.name === entry.name)!;
      expect(skill.frontmatter).toMatchObject({ name: entry.name, description: entry.description });
      expect(httpUrl(skill.uri)).toBe(new URL(entry.url, indexUrl).href);
      const files = skill.resources as Exclude<Skill["resources"], "dynamic">;
      expect(files.find((f) => f.uri === skill.uri)!.digest).toBe(entry.digest);
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const bytes = await bytesAt(httpUrl(file.uri));
        expect({ digest: file.digest, size: file.size }, file.uri).toEqual({ digest: digest(bytes), size: bytes.byteLength });
      }
    }

    const read = async (suffix: string, path: string) =>
      (
        await skills.read(
          listed.find((s) => s.frontmatter.name.endsWith(suffix))!,
          path,
        )
      ).text!;
    expect(await read("-rest-api", "references/openapi.json")).toBe(await (await fetch(`${base}/api/v1/openapi.json`)).text());
    for (const [suffix, page, heading] of [
      ["-mcp", "/developers/mcp", "## MCP server"],
      ["-a2a", "/developers/a2a", "## A2A agent"],
    ]) {
      // The page's sections as its twin has them: the reference's title and source line, then the same Markdown.
      const reference = await read(suffix!, "references/developer-guide.md");
      expect(reference, suffix).toContain(`, at ${base}${page}.\n\n`);
      const sections = reference.split("\n\n").slice(2).join("\n\n");
      expect(sections.length, suffix).toBeGreaterThan(1000);
      expect(sections.startsWith(`${heading}\n\n`), suffix).toBe(true);
      expect((await (await fetch(`${base}${page}.md`)).text()).endsWith(`\n\n${sections}`), suffix).toBe(true);
    }
    await client.close();
    // The bundle's copy is only for MCP: it is not served under /api.
    expect((await fetch(`${base}/api/v1/prebuilt-skills.json`)).status).toBe(404);
  });
});
