import type { APIRoute, GetStaticPaths } from "astro";
import { skillFiles } from "../../../discovery/skills/files.ts";
import { loadSite } from "../../../site/load.ts";

// Every file of every skill, <name>/SKILL.md and its references, as /mcp serves them (src/discovery/skills/files.ts).
// The platform serves each by its extension (text/markdown, application/json).
export const getStaticPaths = (async () =>
  Object.entries(skillFiles(await loadSite())).map(([file, text]) => ({ params: { file }, props: { text } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.text);
