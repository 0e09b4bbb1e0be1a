import { oauthPaths } from "../paths.ts";
import { escapeHtml, renderPage, type PageShell } from "../site/function-page.ts";
import { scopes, type Scope } from "../tokens/metadata.ts";
import { loopbackHostNames } from "./redirect-uri.ts";

/** The consent screen and the authorization error page: one card on a page that looks like the rest of the site. */
const page = (shell: PageShell, title: string, card: string) =>
  renderPage(shell, {
    title,
    description: `An application asks for access to ${shell.studioName}: approve or deny it.`,
    main: `<section class="card consent" aria-labelledby="consent-title">\n${card}\n</section>`,
  });

export interface ConsentView {
  clientName: string | undefined;
  /** Set for a client ID metadata document: the host that publishes the client's metadata, hence vouches for it. */
  documentHost?: string;
  /** A metadata document client that proves itself at the token endpoint with a key (private_key_jwt). */
  provesWithKey?: boolean;
  redirectUri: string;
  scope: string;
  requestToken: string;
}

export function consentPage(shell: PageShell, view: ConsentView): string {
  const name = view.clientName ? escapeHtml(view.clientName) : "An unnamed application";
  const granted = view.scope.split(" ").filter((s): s is Scope => s in scopes);
  return page(
    shell,
    `Allow ${view.clientName ?? "an unnamed application"}?`,
    `<p class="muted consent-kicker">Authorization request</p>
<h1 id="consent-title" class="consent-title">${name} <span class="badge">${view.documentHost ? `From ${escapeHtml(view.documentHost)}` : "Unverified"}</span></h1>
<p>This application asks for access to ${escapeHtml(shell.studioName)}. ${vouching(view)}</p>
<h2 class="consent-subtitle">It will be able to</h2>
<ul class="consent-scopes">${granted.map((s) => `<li>${escapeHtml(scopes[s])}</li>`).join("")}</ul>
<p>After you decide, you go back to ${destination(view.redirectUri)}.</p>
<form method="post" action="${oauthPaths.authorize}">
<input type="hidden" name="request" value="${escapeHtml(view.requestToken)}">
<div class="actions"><button class="button primary" type="submit" name="decision" value="approve">Approve</button><button class="button secondary" type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

/**
 * Where the answer goes, as the person can check it: a web site by its host; an application on this computer by its
 * loopback address; an application on this device by its private-use scheme (a reversed domain name such as
 * `com.example.app`), never by the host part of such a URI, which the application chooses freely
 * (`com.evil.app://accounts.google.com/cb`).
 */
function destination(redirectUri: string): string {
  const redirect = new URL(redirectUri);
  const scheme = redirect.protocol.slice(0, -1);
  if (scheme !== "https" && scheme !== "http") return `<strong>${escapeHtml(scheme)}</strong>, an application on this device`;
  const local = loopbackHostNames.has(redirect.hostname);
  return `<strong>${escapeHtml(redirect.host)}</strong>${local ? ", an application running on this computer" : ""}`;
}

/** Who stands behind the name: a host that publishes the client's metadata (and maybe its key), or nobody. */
function vouching({ documentHost, provesWithKey }: ConsentView): string {
  if (!documentHost) return "Its name is chosen by the application itself and has not been checked.";
  const host = `<strong>${escapeHtml(documentHost)}</strong>`;
  return provesWithKey
    ? `Its details are published by ${host}, and it proves itself with a key that ${host} publishes.`
    : `Its details are published by ${host}, which chooses where the answer goes; it does not prove itself with a key.`;
}

/** The page for a request that cannot go on; `error` is the OAuth error code, for the application's developer. */
export function errorPage(shell: PageShell, description: string, error?: string): string {
  return page(
    shell,
    "Authorization failed",
    `<p class="muted consent-kicker">Authorization request</p>
<h1 id="consent-title" class="consent-title">This request cannot be completed</h1>
<p>${escapeHtml(description)}</p>
<p>Go back to the application and start again. If it keeps happening, the application is misconfigured.</p>${
      error ? `\n<p class="muted">Error code for its developer: <code>${escapeHtml(error)}</code></p>` : ""
    }`,
  );
}
