import type { APIRoute, GetStaticPaths } from "astro";
import { skillFile } from "../../../../discovery/skills/common.ts";
import { skills } from "../../../../discovery/skills/index.ts";
import { loadSite } from "../../../../site/load.ts";

export const getStaticPaths = (async () =>
  skills(await loadSite()).map((skill) => ({ params: { name: skill.name }, props: { file: skillFile(skill) } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.file, { headers: { "Content-Type": "text/markdown; charset=utf-8" } });
