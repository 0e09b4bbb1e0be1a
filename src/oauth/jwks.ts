import type { SigningKeys } from "./keys.ts";

/** GET /.well-known/jwks.json (RFC 7517 §5): the public part of every configured key, from the running configuration. */
export function jwksResponse(keys: SigningKeys): Response {
  return new Response(JSON.stringify(keys.publicJwks), {
    headers: {
      "Content-Type": "application/json",
      // Short enough that a newly published key is seen well before it signs (see `npm run keys -- rotate`).
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
