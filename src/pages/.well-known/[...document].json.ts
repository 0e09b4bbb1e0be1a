import type { APIRoute, GetStaticPaths } from "astro";
import { discoveryDocuments } from "../../tokens/metadata.ts";
import { loadSite } from "../../site/load.ts";

// The OAuth discovery documents (RFC 8414, RFC 9728), from the module the functions read too. Each is written to
// dist/.well-known/<name>.json; netlify.toml serves it at its extension-less URL.
export const getStaticPaths = (async () => {
  const { baseUrl } = await loadSite();
  return Object.entries(discoveryDocuments(baseUrl)).map(([path, body]) => ({
    params: { document: path.replace(/^\/\.well-known\//, "") },
    props: { body },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(`${JSON.stringify(props.body, null, 2)}\n`);
