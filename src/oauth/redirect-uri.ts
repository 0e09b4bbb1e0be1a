/**
 * Redirect URI rules: absolute, no fragment (RFC 6749 §3.1.2), no user information, bounded length, and by kind:
 * https for any client, http on a loopback host for any client (RFC 8252 §7.3, §8.3), a private-use scheme only for
 * a native client (RFC 8252 §7.1), and then only a reversed domain name (`com.example.app:`, RFC 8252 §7.1 and §8.4)
 * that is not a scheme the operating system or a browser owns (`systemSchemes`).
 */
export const maxRedirectUriLength = 512;

/** `web` (OpenID Connect Registration's default) or `native` (an app on the person's device, RFC 8252). */
export const applicationTypes = ["web", "native"] as const;
export type ApplicationType = (typeof applicationTypes)[number];

/** The host names that are this machine: RFC 8252's loopback redirect hosts (and the test-only mode's document hosts). */
export const loopbackHostNames = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Schemes the operating system or a browser handles itself, never an app's own callback: a redirect there hands the
 * person's browser to a system handler, with the studio's domain as the link that sent it (search-ms: opens a search of
 * a remote share in Explorer, ms-settings: the settings, file: a local file, javascript: and data: run script, tel: and
 * sms: dial). An entry ending in `*` is every scheme that begins with it (`ms-*`: ms-settings, ms-word, ms-excel, ...).
 * Most have no period and fail the reversed-domain rule anyway; the list is checked first so that the refusal says why,
 * it also catches those with a period (`x-apple.systempreferences:`, `microsoft.windows.camera:`), and it keeps the
 * intent when a rule changes. It is a floor, not a catalogue: a scheme is allowed only because it is a reversed domain
 * name, never because it is missing here.
 */
export const systemSchemes = [
  // Browsers: script, documents, their own pages, extensions and sandboxes.
  "about",
  "blob",
  "data",
  "filesystem",
  "javascript",
  "vbscript",
  "view-source",
  "chrome*",
  "edge",
  "brave",
  "opera",
  "vivaldi",
  "moz-*",
  "resource",
  "jar",
  "safari*",
  "webkit*",
  "devtools",
  // Network protocols a browser or the system opens itself.
  "file",
  "ftp",
  "ftps",
  "sftp",
  "smb",
  "nfs",
  "afp",
  "ssh",
  "telnet",
  "ldap",
  "ws",
  "wss",
  "webcal",
  "news",
  "nntp",
  "irc",
  // Calls and messages.
  "tel",
  "sms",
  "mms",
  "mailto",
  "callto",
  "sip",
  "sips",
  "facetime*",
  "imessage",
  "geo",
  "maps",
  // Windows: every ms- scheme (ms-settings, ms-word, ms-msdt, ...), search, the shell, Edge and help.
  "ms-*",
  "search",
  "search-ms",
  "shell",
  "microsoft*",
  "windows*",
  "hcp",
  "its",
  "mk",
  "res",
  "mhtml",
  // Apple: the App Store, system settings and apps.
  "itms*",
  "x-apple*",
  "apple*",
  "prefs",
  "app-prefs",
  "shortcuts",
  "x-web-search",
  // Android: intents and content.
  "intent",
  "android-app",
  "content",
  "market",
] as const;

/** The system scheme `scheme` is (lower case, without the colon), or undefined. */
export function systemScheme(scheme: string): string | undefined {
  return systemSchemes.find((entry) => (entry.endsWith("*") ? scheme.startsWith(entry.slice(0, -1)) : scheme === entry));
}

// A DNS label (letters, digits and hyphens, not at either end, at most 63), and at least two of them: RFC 3986's scheme
// syntax narrowed to a domain name written backwards, which starts with a letter as a scheme must.
const domainLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export function isReversedDomainName(scheme: string): boolean {
  const labels = scheme.split(".");
  return labels.length >= 2 && /^[a-z]/.test(scheme) && labels.every((label) => domainLabel.test(label));
}

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
  const scheme = url.protocol.slice(0, -1);
  if (systemScheme(scheme)) return `the scheme ${url.protocol} belongs to the operating system or a browser, never to an app`;
  if (!isReversedDomainName(scheme)) {
    return (
      `a private-use scheme must be a domain name the app's developer controls, reversed, with at least one period ` +
      `(RFC 8252 §7.1, §8.4), such as com.example.app:/callback; ${url.protocol} is not`
    );
  }
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

/**
 * A loopback redirect URI as written: its host, its port (1 to 65535, no leading zero) and the rest. Compared as
 * strings, never as parsed URLs, which would take `http://0x7f.1/cb`, `http:/127.0.0.1/cb` or `/cb/../cb` for
 * `http://127.0.0.1/cb`.
 */
const loopbackParts = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::([1-9][0-9]{0,4}))?(\/[^#]*)?$/;

/**
 * The registered URI the request's redirect_uri matches: as written, character for character (RFC 9700 §4.1.3), or for
 * a loopback http URI with another port (RFC 8252 §7.3: a native app's local listener picks its port at run time), the
 * host and the rest written exactly as registered.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | undefined {
  if (registered.includes(requested)) return requested;
  const asked = loopbackParts.exec(requested);
  if (!asked || Number(asked[2] ?? 80) > 65535) return undefined;
  return registered.find((candidate) => {
    const known = loopbackParts.exec(candidate);
    return known !== null && known[1] === asked[1] && (known[3] ?? "/") === (asked[3] ?? "/");
  });
}
