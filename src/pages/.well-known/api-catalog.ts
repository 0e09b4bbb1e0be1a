import type { APIRoute } from "astro";

import { aiCatalogMediaType, apiCatalog } from "../../discovery/api-catalog.ts";
import { skills } from "../../discovery/skills/index.ts";
import { serverCardMediaType } from "../../mcp/constants.ts";
import { jsonResponse } from "../../resources/json.ts";
import { loadSite } from "../../site/load.ts";
import { a2aPath, agentCardPath, aiCatalogPath, skillPath, mcpPath, serverCardPath, absolute, guidePagePaths } from "../../paths.ts";

export const GET: APIRoute = async () => {
  const site = await loadSite();
  const url = (path: string) => absolute(site.baseUrl, path);
  const skill = (suffix: string) => skills(site).find((s) => s.name.endsWith(suffix))!;
  // The AI Catalog lists both agent surfaces' cards ("ai-catalog", the relation the AI Catalog specification registers).
  const aiCatalog = [{ href: url(aiCatalogPath), type: aiCatalogMediaType, title: "AI catalog" }];
  return jsonResponse(
    apiCatalog(site, [
      {
        anchor: url(mcpPath),
        "service-desc": [{ href: url(serverCardPath), type: serverCardMediaType, title: "MCP server card" }],
        "service-doc": [
          { href: url(skillPath(skill("-mcp").name)), type: "text/markdown", title: "Agent skill" },
          { href: url(guidePagePaths.mcp), type: "text/html", title: "Developer documentation" },
        ],
        "ai-catalog": aiCatalog,
      },
      {
        anchor: url(a2aPath),
        "service-desc": [{ href: url(agentCardPath), type: "application/json", title: "A2A agent card" }],
        "service-doc": [
          { href: url(skillPath(skill("-a2a").name)), type: "text/markdown", title: "Agent skill" },
          { href: url(guidePagePaths.a2a), type: "text/html", title: "Developer documentation" },
        ],
        "ai-catalog": aiCatalog,
      },
    ]),
  );
};
