import type { APIRoute } from "astro";
import { builtAgentCard } from "../../a2a/build-card.ts";
import { prebuiltResources } from "../../resources/prebuilt.ts";
import { loadSite } from "../../site/load.ts";

// The A2A agent card, from the definitions the /a2a/v1 function uses, signed with OAUTH_SIGNING_KEYS when the build
// has it (see src/a2a/build-card.ts).
export const GET: APIRoute = async () => {
  const site = await loadSite();
  return new Response(`${JSON.stringify(await builtAgentCard(site.baseUrl, prebuiltResources(site), process.env), null, 2)}\n`);
};
