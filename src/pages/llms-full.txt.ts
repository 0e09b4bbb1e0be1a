import type { APIRoute } from "astro";
import { llmsFullTxt } from "../discovery/llms.ts";
import { twins } from "../markdown/twins.ts";
import { loadSite } from "../site/load.ts";

export const GET: APIRoute = async () => {
  const site = await loadSite();
  return new Response(llmsFullTxt(site, twins(site)));
};
