import type { SigningKeys } from "../tokens/keys.ts";

/** How long a client may cache the key set: short enough that a newly published key is seen well before it signs. */
export const jwksMaxAgeSeconds = 300;

/** GET /.well-known/jwks.json (RFC 7517 §5): the public part of every configured key, from the running configuration. */
export function jwksResponse(keys: SigningKeys): Response {
  return new Response(JSON.stringify(keys.publicJwks), {
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": `public, max-age=${jwksMaxAgeSeconds}`, // see `npm run keys -- rotate`
      "Access-Control-Allow-Origin": "*",
    },
  });
}
