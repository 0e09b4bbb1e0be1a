import type { APIRoute, GetStaticPaths } from "astro";
import { twins } from "../markdown/twins.ts";
import { loadSite } from "../site/load.ts";

/** Writes every page's Markdown twin next to its HTML: /services -> /services.md, / -> /index.md. */
export const getStaticPaths = (async () =>
  twins(await loadSite()).map((twin) => ({
    params: { twin: twin.markdownPath.slice(1, -".md".length) },
    props: { markdown: twin.markdown },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.markdown, { headers: { "Content-Type": "text/markdown; charset=utf-8" } });
