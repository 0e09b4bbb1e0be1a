/**
 * Redirect URI rules: absolute, no fragment (RFC 6749 §3.1.2), no user information, bounded length, and by kind:
 * https for any client, http on a loopback host for any client (RFC 8252 §7.3, §8.3), a private-use scheme only for
 * a native client (RFC 8252 §7.1). Never javascript:, data: or another scheme a browser handles itself.
 */
export const maxRedirectUriLength = 512;

/** `web` (OpenID Connect Registration's default) or `native` (an app on the person's device, RFC 8252). */
export const applicationTypes = ["web", "native"] as const;
export type ApplicationType = (typeof applicationTypes)[number];

/** The host names that are this machine: RFC 8252's loopback redirect hosts (and the test-only mode's document hosts). */
export const loopbackHostNames = new Set(["127.0.0.1", "[::1]", "localhost"]);
// Schemes a browser or the system handles itself: never an app's own callback.
const refusedSchemes = new Set([
  "about:",
  "blob:",
  "chrome:",
  "data:",
  "file:",
  "filesystem:",
  "ftp:",
  "javascript:",
  "mailto:",
  "sms:",
  "tel:",
  "vbscript:",
  "view-source:",
  "ws:",
  "wss:",
]);

type RedirectKind = "https" | "loopback" | "private-use";

function parse(uri: unknown): { url: URL; kind: RedirectKind } | string {
  if (typeof uri !== "string" || uri === "") return "a redirect URI must be a non-empty string";
  if (uri.length > maxRedirectUriLength) return `a redirect URI must be at most ${maxRedirectUriLength} characters`;
  if (uri.includes("#")) return "a redirect URI must not have a fragment";
  if (/[\s\x00-\x1f\x7f]/.test(uri)) return "a redirect URI must not contain spaces or control characters";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "a redirect URI must be an absolute URI";
  }
  if (url.username || url.password) return "a redirect URI must not carry user information";
  if (url.protocol === "https:") return url.hostname.includes("*") ? "a redirect URI must not contain wildcards" : { url, kind: "https" };
  if (url.protocol === "http:")
    return loopbackHostNames.has(url.hostname)
      ? { url, kind: "loopback" }
      : "http is allowed only on a loopback host (127.0.0.1, [::1], localhost)";
  if (refusedSchemes.has(url.protocol)) return `the scheme ${url.protocol} cannot be a redirect URI`;
  if (url.href === url.protocol) return "a private-use redirect URI needs a path after its scheme";
  return { url, kind: "private-use" };
}

/** Why the URI cannot be registered for this kind of application, or undefined when it can. */
export function redirectUriProblem(uri: unknown, applicationType: ApplicationType = "web"): string | undefined {
  const parsed = parse(uri);
  if (typeof parsed === "string") return parsed;
  if (parsed.kind === "private-use" && applicationType !== "native") {
    return "a private-use scheme (RFC 8252 §7.1) is allowed only for application_type native; a web client uses https";
  }
  return undefined;
}

/**
 * The application type a registration that omits it is given: native when one of its redirect URIs is a private-use
 * scheme or all of them are loopback (an app on the person's device), otherwise web.
 */
export function inferredApplicationType(uris: readonly unknown[]): ApplicationType {
  const kinds = uris.map((uri) => parse(uri)).map((p) => (typeof p === "string" ? undefined : p.kind));
  const native = kinds.includes("private-use") || (kinds.length > 0 && kinds.every((k) => k === "loopback"));
  return native ? "native" : "web";
}

/** What the consent page's CSP `form-action` must allow for the redirect after its POST: the origin, or the scheme. */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : url.protocol;
}

const isLoopback = (url: URL) => url.protocol === "http:" && loopbackHostNames.has(url.hostname);

/**
 * The registered URI the request's redirect_uri matches: exactly, or for loopback http with any port (RFC 8252 §7.3,
 * the port of a native app's local listener is chosen at run time).
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | undefined {
  if (registered.includes(requested)) return requested;
  const parsed = parse(requested);
  if (typeof parsed === "string" || !isLoopback(parsed.url)) return undefined;
  const asked = parsed.url;
  return registered.find((candidate) => {
    const known = new URL(candidate);
    return isLoopback(known) && known.hostname === asked.hostname && known.pathname === asked.pathname && known.search === asked.search;
  });
}
