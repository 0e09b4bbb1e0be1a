/** What a cross-origin reader of a discovery document may send: validators, and the protocols' version headers. */
const allowedHeaders = ["If-None-Match", "If-Modified-Since", "Accept", "MCP-Protocol-Version", "A2A-Version"];

/**
 * A browser's preflight for a public discovery document (anything under /.well-known): any origin may GET or HEAD it,
 * with the headers a reader sends, and the answer is kept a day. A preflight asking for another method is answered
 * without Access-Control-Allow-Methods naming it, so the browser refuses it.
 */
export function discoveryPreflight(): Response {
  const headers = new Headers({
    Allow: "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": allowedHeaders.join(", "),
    "Access-Control-Max-Age": "86400",
  });
  return new Response(null, { status: 204, headers });
}
