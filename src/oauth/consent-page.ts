import { logoPath, mainNavigation } from "../site/routes.ts";
import { scopes, type Scope } from "./metadata.ts";

/**
 * The consent screen and the authorization error page, rendered by the function as plain HTML that looks like the
 * rest of the site: the same header and the site's own stylesheet, inlined. No script, no external resource.
 */
export interface PageShell {
  studioName: string;
  stylesheet: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Security headers of every page here: never framed, never cached, forms post only to us (and on to the client). */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formTargets].join(" ")}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the form's POST, and the
    // request URL still never leaks to the client's site.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

function page(shell: PageShell, title: string, card: string): string {
  const name = escapeHtml(shell.studioName);
  const nav = mainNavigation.map(([label, path]) => `<li><a href="${path}">${escapeHtml(label)}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · ${name}</title>
<style>${shell.stylesheet}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap"><a class="brand" href="/"><svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><path fill="currentColor" d="${logoPath}"/></svg><span>${name}</span></a><nav class="site-nav" aria-label="Main"><ul>${nav}</ul></nav></div></header>
<main id="main" tabindex="-1"><div class="wrap">
<section class="card consent" aria-labelledby="consent-title">
${card}
</section>
</div></main>
</body>
</html>
`;
}

export interface ConsentView {
  clientName: string | undefined;
  /** Set for a client ID metadata document: where the client's metadata is published. */
  documentHost?: string;
  redirectUri: string;
  scope: string;
  requestToken: string;
}

export function consentPage(shell: PageShell, view: ConsentView): string {
  const name = view.clientName ? escapeHtml(view.clientName) : "An unnamed application";
  const redirect = new URL(view.redirectUri);
  const local = ["127.0.0.1", "[::1]", "localhost"].includes(redirect.hostname);
  const granted = view.scope.split(" ").filter((s): s is Scope => s in scopes);
  return page(
    shell,
    `Allow ${view.clientName ?? "an unnamed application"}?`,
    `<p class="muted consent-kicker">Authorization request</p>
<h1 id="consent-title" class="consent-title">${name} <span class="badge">Unverified</span></h1>
<p>This application asks for access to ${escapeHtml(shell.studioName)}. Its name is chosen by the application itself and has not been checked.${
      view.documentHost ? ` Its details are published at <strong>${escapeHtml(view.documentHost)}</strong>.` : ""
    }</p>
<h2 class="consent-subtitle">It will be able to</h2>
<ul class="consent-scopes">${granted.map((s) => `<li>${escapeHtml(scopes[s])}</li>`).join("")}</ul>
<p>After you decide, you go back to <strong>${escapeHtml(redirect.host)}</strong>${local ? ", an application running on this computer" : ""}.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request" value="${escapeHtml(view.requestToken)}">
<div class="actions"><button class="button primary" type="submit" name="decision" value="approve">Approve</button><button class="button secondary" type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

export function errorPage(shell: PageShell, description: string): string {
  return page(
    shell,
    "Authorization failed",
    `<p class="muted consent-kicker">Authorization request</p>
<h1 id="consent-title" class="consent-title">This request cannot be completed</h1>
<p>${escapeHtml(description)}</p>
<p>Go back to the application and start again. If it keeps happening, the application is misconfigured.</p>`,
  );
}
