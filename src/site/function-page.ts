import { logoPath, mainNavigation } from "./routes.ts";

/**
 * Pages that functions render (the consent screen, the contact form's answers) as plain HTML that looks like the rest
 * of the site: the same header and the site's own stylesheet, inlined. No script, no external resource.
 */
export interface PageShell {
  studioName: string;
  stylesheet: string;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Security headers of every such page: never framed, never cached, forms post only to us (and to `formTargets`). */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formTargets].join(" ")}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on a form's POST, and the
    // request URL still never leaks to another site.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

export function renderPage(
  shell: PageShell,
  { title, main, current, description }: { title: string; main: string; current?: string; description?: string },
): string {
  const name = escapeHtml(shell.studioName);
  const nav = mainNavigation
    .map(([label, path]) => `<li><a href="${path}"${path === current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${description ? `\n<meta name="description" content="${escapeHtml(description)}">` : ""}
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · ${name}</title>
<style>${shell.stylesheet}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap"><a class="brand" href="/"><svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><path fill="currentColor" d="${logoPath}"/></svg><span>${name}</span></a><nav class="site-nav" aria-label="Main"><ul>${nav}</ul></nav></div></header>
<main id="main" tabindex="-1"><div class="wrap">
${main}
</div></main>
</body>
</html>
`;
}
