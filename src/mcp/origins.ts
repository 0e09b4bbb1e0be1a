import type { Configuration } from "../config/settings.ts";

/**
 * The origins a browser may call /mcp from (DNS-rebinding protection): the site's own, from the configuration, never
 * hard-coded. On Netlify a deploy is also reachable at its deploy URLs and the site's netlify.app name.
 */
export function allowedOriginsFrom(settings: Configuration, baseUrl: string): string[] {
  const site = settings.get("SITE_NAME");
  const urls = [baseUrl, settings.get("DEPLOY_URL"), settings.get("DEPLOY_PRIME_URL"), site ? `https://${site}.netlify.app` : undefined];
  const origins = urls.flatMap((u) => {
    try {
      return u ? [new URL(u).origin] : [];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}

export const hostsOf = (origins: string[]) => origins.map((o) => new URL(o).host);
