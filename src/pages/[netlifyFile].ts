import type { APIRoute, GetStaticPaths } from "astro";
import { netlifyHeaders } from "../site/headers.ts";
import { loadSite } from "../site/load.ts";
import { platformFiles } from "../paths.ts";

// Emits dist/_headers (a file name Astro would otherwise skip for its leading underscore).
export const getStaticPaths = (() => [{ params: { netlifyFile: platformFiles.headers.slice(1) } }]) satisfies GetStaticPaths;

export const GET: APIRoute = async () => new Response(netlifyHeaders(await loadSite()));
