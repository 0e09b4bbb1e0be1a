import { Refusal } from "../http/refusal.ts";
import { resourceIdentifier, resourceIdentifiers, scopeNames, type Scope } from "../tokens/metadata.ts";

/** `svc:read` is always granted, `svc:brief` when asked; an unknown scope is invalid_scope (RFC 6749 §3.3). */
export function grantedScope(requested: string | undefined): string {
  const asked = (requested ?? "").split(" ").filter(Boolean);
  const unknown = asked.filter((s) => !(scopeNames as string[]).includes(s));
  if (unknown.length > 0)
    throw new Refusal("invalid_scope", { detail: `Unknown scope ${unknown.join(" ")}; the scopes are ${scopeNames.join(" ")}.` });
  return scopeNames.filter((s: Scope) => s === "svc:read" || asked.includes(s)).join(" ");
}

/**
 * The token's audience from RFC 8707 `resource`: one of our resource identifiers (scheme and host compared without
 * case, a trailing slash ignored), the origin when none is given; anything else, or more than one, is invalid_target.
 */
export function grantedAudience(baseUrl: string, requested: string[] | undefined): string {
  if (!requested || requested.length === 0) return resourceIdentifier(baseUrl, "origin");
  const known = resourceIdentifiers(baseUrl);
  const refuse = () => new Refusal("invalid_target", { detail: `resource must be one of ${known.join(", ")}.` });
  if (requested.length > 1)
    throw new Refusal("invalid_target", { detail: "Ask for one resource per token; a token for any of them works at all of them." });
  let url: URL;
  try {
    url = new URL(requested[0]!);
  } catch {
    throw refuse();
  }
  if (url.hash || url.search || requested[0]!.includes("#")) throw refuse();
  const canonical = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  if (!known.includes(canonical)) throw refuse();
  return canonical;
}
