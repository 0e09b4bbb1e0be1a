import { briefSchema } from "../briefs/schema.ts";
import { skills } from "../discovery/skills/index.ts";
import { toolScopes } from "../mcp/auth-gate.ts";
import { mcpTools } from "../mcp/server.ts";
import { conditionOf } from "../http/conditions.ts";
import { mcpConditions } from "../mcp/errors.ts";
import { promptDefinitions } from "../mcp/prompts.ts";
import { resourceDefinitions } from "../mcp/resources.ts";
import { prebuiltResources, siteSizeIds } from "../resources/prebuilt.ts";
import type { Site } from "../site/model.ts";
import type { Table } from "./block.ts";

/** The MCP section's tables, from the same definitions the server registers. */

export function mcpToolsTable(site: Site): Table {
  const prebuilt = prebuiltResources(site);
  const filing = {
    schema: briefSchema(siteSizeIds(prebuilt)),
    studio: prebuilt.site.name,
    responseTime: prebuilt.site.response_time,
    file: () => Promise.reject(new Error("documentation only")),
    filedUnder: () => Promise.reject(new Error("documentation only")),
    checkKey: () => Promise.reject(new Error("documentation only")),
  };
  const booking = { booking: () => undefined, studio: prebuilt.site.name };
  return {
    columns: ["Tool", "Needs", "What it does"],
    rows: mcpTools(prebuilt, filing, booking).map((t) => [
      { code: t.name },
      toolScopes[t.name] ? `token with ${toolScopes[t.name]}` : "no token",
      t.description,
    ]),
  };
}

export const mcpResourcesTable = (site: Site): Table => ({
  columns: ["URI", "What it holds"],
  rows: resourceDefinitions(prebuiltResources(site)).map((r) => [{ code: r.uri }, r.description]),
});

/** The skills /mcp serves (the Skills extension), each by its SKILL.md's URI, with its files. */
export const mcpSkillsTable = (site: Site): Table => ({
  columns: ["Skill", "Files", "What it is for"],
  rows: skills(site).map((s) => [
    { code: `skill://${s.name}/SKILL.md` },
    ["SKILL.md", ...s.references.map((r) => r.path)].join(", "),
    s.description,
  ]),
});

export const mcpPromptsTable = (site: Site): Table => ({
  columns: ["Prompt", "Arguments", "What it does"],
  rows: promptDefinitions(prebuiltResources(site)).map((p) => [
    { code: p.name },
    Object.keys(p.arguments).join(", ") || "none",
    p.description,
  ]),
});

/** The errors of the MCP HTTP layer: data.code, HTTP status and JSON-RPC code. */
export const mcpErrorsTable = (): Table => ({
  columns: ["data.code", "HTTP", "JSON-RPC code", "Meaning"],
  rows: mcpConditions.map((name) => {
    const c = conditionOf(name);
    return [{ code: c.problem ?? name }, String(c.status), String(c.rpc), `${c.title}: ${c.when}`];
  }),
});
