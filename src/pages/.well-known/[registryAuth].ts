import type { APIRoute, GetStaticPaths } from "astro";
import { platformEnv } from "../../config/env.ts";
import { settingsFrom } from "../../config/settings.ts";
import { registryAuthBody } from "../../mcp/registry.ts";
import { registryAuthPath } from "../../paths.ts";

// The MCP Registry's proof of the domain, only with MCP_REGISTRY_AUTH_PUBLIC_KEY: without it nothing is written, and the
// path is a 404. functions/edge/media-types.ts types it text/plain.
export const getStaticPaths = (() => {
  const key = settingsFrom(platformEnv).get("MCP_REGISTRY_AUTH_PUBLIC_KEY");
  return key ? [{ params: { registryAuth: registryAuthPath.split("/").at(-1)! }, props: { key } }] : [];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(registryAuthBody((props as { key: string }).key));
