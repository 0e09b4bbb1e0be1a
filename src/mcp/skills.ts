import { memorySkillFiles, SKILLS_EXTENSION_ID, SkillsExtension, type SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import { listTtlSeconds } from "./constants.ts";

/**
 * The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) over the skills' files as the build writes them
 * (src/discovery/skills/files.ts: `<name>/SKILL.md` and its references), so `skills/list`, `skills/get` and
 * `resources/read` of `skill://<name>/<file>` serve the very bytes /.well-known/agent-skills/ serves. Loaded once per
 * instance and attached to each request's server; strict, so a skill the SDK would drop is an error instead. The
 * hints are the lists': nothing changes during a deploy.
 */
export const skillsCatalog = (files: Record<string, string>): Promise<SkillCatalog> =>
  SkillsExtension.load(memorySkillFiles(files), { strict: true, cacheHint: { ttlMs: listTtlSeconds * 1000, cacheScope: "public" } });

/**
 * The extensions the server declares in `capabilities.extensions` (server/discover, initialize), as the server card
 * repeats them: a catalog loaded from files always reads directories.
 */
export const declaredExtensions = { [SKILLS_EXTENSION_ID]: { directoryRead: true } } as const;
