import { conditions, type ConditionName } from "../http/conditions.ts";
import { refusalHeaders, type Format } from "../http/formats.ts";
import type { Refusal } from "../http/refusal.ts";
import { pagePaths } from "../paths.ts";
import { escapeHtml as e, pageHeaders, renderPage, type PageShell } from "../site/function-page.ts";

export interface ContactPages {
  shell: PageShell;
  /** The studio's address, offered on every page that did not send the brief. */
  email: string;
  /** The form's own limit, named when a body is too large to read. */
  maxFormBytes: number;
}

/** A wait in words a person reads: "in 2 minutes", "in an hour". */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return "in a minute";
  if (minutes < 60) return `in ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? "in an hour" : `in ${hours} hours`;
}

/** A page of the site for a person, with the status and headers of its answer. */
export function contactPage(shell: PageShell, status: number, title: string, body: string, headers: Record<string, string> = {}) {
  return new Response(renderPage(shell, { title, main: `<div class="column">${body}</div>`, current: pagePaths.contact }), {
    status,
    headers: { ...headers, ...pageHeaders() },
  });
}

/**
 * The contact form's refusals, as pages: a person sent the form, so every refusal is a page of the site that says what
 * happened, whether anything was recorded, and where to write instead. Status and Retry-After are the conditions
 * table's, as in every door.
 */
export function contactPages({ shell, email, maxFormBytes }: ContactPages): Format {
  const writeToUs = `<p>You can also write to <a href="mailto:${e(email)}">${e(email)}</a>.</p>`;
  const tooLong = `<h1>Not sent</h1><p>The form was too long to read (${maxFormBytes / 1024} KB at most).</p>`;
  const notAForm = `<h1>Not sent</h1><p>It was not sent as a form: send it from the form on the contact page.</p>`;
  const unreadable = `<h1>Not sent</h1><p>The form could not be read: a field was given twice, or its text was not UTF-8.</p>`;
  const failed = `<h1>Your brief was not sent</h1><p>Something on our side failed and nothing was recorded. Please try again in a few minutes.</p>`;
  const says: Partial<Record<ConditionName, (refusal: Refusal) => string>> = {
    forbidden_origin: () => `<h1>Not sent</h1><p>This form only accepts briefs sent from its own page on this site.</p>`,
    rate_limited: (refusal) => tooMany(refusal),
    brief_quota_exceeded: (refusal) => tooMany(refusal),
    payload_too_large: () => tooLong,
    unsupported_media_type: () => notAForm,
    invalid_request: () => unreadable,
    service_unavailable: () => failed,
    misconfigured: () =>
      `<h1>Your brief was not sent</h1><p>The form is out of order; nothing was recorded. Please write to <a href="mailto:${e(email)}">${e(email)}</a>.</p>`,
  };
  function tooMany(refusal: Refusal) {
    const retryAfter = Number(refusalHeaders(refusal)["Retry-After"] ?? 3600);
    return `<h1>Too many briefs from this network</h1><p>Please try again ${waitInWords(retryAfter)}.</p>`;
  }
  return (refusal) => {
    const condition = conditions[refusal.condition];
    const body = says[refusal.condition]?.(refusal) ?? `<h1>Not sent</h1><p>${e(condition.title)}.</p>`;
    const title = condition.status === 429 ? "Too many briefs" : "Not sent";
    return contactPage(
      shell,
      condition.status,
      title,
      `${body}${refusal.condition === "misconfigured" ? "" : writeToUs}`,
      refusalHeaders(refusal),
    );
  };
}
