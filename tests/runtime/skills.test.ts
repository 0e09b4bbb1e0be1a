import { createHash } from "node:crypto";
import yaml from "js-yaml";
import { describe, expect, inject, it } from "vitest";
import { statusOf } from "../support/http.ts";
import type { SkillsIndexEntry as IndexEntry } from "../../src/discovery/skills/index.ts";

/** The agent skills index (Agent Skills Discovery v0.2.0) and each SKILL.md, as an agent that knows only the domain finds them. */
const base = inject("baseUrl");

const loadIndex = async () => {
  const res = await fetch(`${base}/.well-known/agent-skills/index.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as { $schema: string; skills: IndexEntry[] };
};

const skill = async (entry: IndexEntry) => {
  const res = await fetch(new URL(entry.url, `${base}/.well-known/agent-skills/index.json`));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/(markdown|plain)/);
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
  return { bytes, front: yaml.load(front ?? "") as { name: string; description: string }, body: body ?? "" };
};

describe("agent skills", () => {
  it("publishes a v0.2.0 index whose digests match the bytes served and whose SKILL.md files are well-formed", async () => {
    const index = await loadIndex();
    expect(index.$schema).toBe("https://schemas.agentskills.io/discovery/0.2.0/schema.json");
    expect(index.skills.length).toBeGreaterThanOrEqual(1);
    for (const entry of index.skills) {
      expect(entry.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(entry.name.length).toBeLessThanOrEqual(64);
      expect(entry.type).toBe("skill-md");
      expect(entry.description.length).toBeLessThanOrEqual(1024);
      const { bytes, front } = await skill(entry);
      expect(entry.digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
      expect(front.name).toBe(entry.name);
      expect(entry.url).toBe(`/.well-known/agent-skills/${front.name}/SKILL.md`);
      expect(front.description).toBe(entry.description);
    }
  });

  it("the REST recipe works step by step: discover, read, register, token, dry-run brief", async () => {
    const entry = (await loadIndex()).skills.find((s) => s.name.endsWith("-rest-api"))!;
    const { body } = await skill(entry);
    const urls = [...body.matchAll(/curl (?:-X POST )?'?(https?:\/\/[^\s']+)/g)].map((m) => m[1]!.replace(/[`'"]+$/, ""));
    const reads = urls.filter((u) => !u.includes("/oauth/") && !u.endsWith("/briefs") && !u.endsWith("/bookings"));
    expect(reads.length).toBeGreaterThanOrEqual(6);
    for (const url of reads) expect(await statusOf(url), url).toBe(200);

    const register = urls.find((u) => u.endsWith("/oauth/register"))!;
    const client = (await (
      await fetch(register, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: "my agent",
          grant_types: ["client_credentials"],
          token_endpoint_auth_method: "client_secret_post",
        }),
      })
    ).json()) as { client_id: string; client_secret: string };
    const tokenUrl = urls.find((u) => u.endsWith("/oauth/token"))!;
    const token = (await (
      await fetch(tokenUrl, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope: "svc:brief",
        }),
      })
    ).json()) as { access_token: string };
    const briefs = urls.find((u) => u.endsWith("/briefs"))!;
    const example = /-d '(\{"full_name"[^']+\})'/.exec(body)![1]!;
    const res = await fetch(briefs, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token.access_token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: example,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dry_run: true });
    for (const code of ["not_found", "rate_limited", "invalid_token", "insufficient_scope", "invalid_json", "invalid_brief"])
      expect(body).toContain(`\`${code}\``);
  });
});
