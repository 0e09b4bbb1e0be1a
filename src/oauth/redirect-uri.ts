/**
 * Redirect URI rules: absolute, no fragment (RFC 6749 §3.1.2), https, or http on a loopback host (RFC 8252 §7.3,
 * §8.3); never javascript:, data: or any other scheme; no user information; bounded length.
 */
export const maxRedirectUriLength = 512;

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Why the URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: unknown): string | undefined {
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
  if (url.protocol === "https:") return url.hostname.includes("*") ? "a redirect URI must not contain wildcards" : undefined;
  if (url.protocol === "http:")
    return loopbackHosts.has(url.hostname) ? undefined : "http is allowed only on a loopback host (127.0.0.1, [::1], localhost)";
  return "a redirect URI must use https (or http on a loopback host)";
}

const isLoopback = (url: URL) => url.protocol === "http:" && loopbackHosts.has(url.hostname);

/**
 * The registered URI the request's redirect_uri matches: exactly, or for loopback http with any port (RFC 8252 §7.3,
 * the port of a native app's local listener is chosen at run time).
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | undefined {
  if (registered.includes(requested)) return requested;
  if (redirectUriProblem(requested)) return undefined;
  const asked = new URL(requested);
  if (!isLoopback(asked)) return undefined;
  return registered.find((candidate) => {
    const known = new URL(candidate);
    return isLoopback(known) && known.hostname === asked.hostname && known.pathname === asked.pathname && known.search === asked.search;
  });
}
