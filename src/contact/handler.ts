import type { PipelineDeps } from "../briefs/pipeline.ts";
import { fileBrief } from "../briefs/pipeline.ts";
import { outcomeOf } from "../briefs/receipt.ts";
import type { HandlerContext } from "../http/context.ts";
import { Refusal } from "../http/refusal.ts";
import { readCapped } from "../http/read-capped.ts";
import { fromAllowedOrigin } from "../http/same-origin.ts";
import type { Limiter } from "../limits/limiter.ts";
import { escapeHtml as e, pageHeaders, renderPage, type PageShell } from "../site/function-page.ts";

import { honeypot, type FormField } from "../briefs/form-fields.ts";
import { contactFormAnchor as formAnchor } from "../resources/contact.ts";
import { contactFormHtml } from "./render.ts";
import { pagePaths } from "../paths.ts";

export interface ContactDeps {
  baseUrl: string;
  shell: PageShell;
  fields: FormField[];
  pipeline: PipelineDeps;
  limiter: Limiter;
  contact: { email: string; confirmation: string; responseTime: string };
  log?: (line: string) => void;
}

const maxFormBytes = 32 * 1024;

/**
 * POST /contact: the site's contact form files a brief through the same pipeline as the API, first-party and without
 * OAuth (the client is `form:<ip>`), answering a person with pages: the form again with its errors, or a confirmation.
 */
export function createContactHandler({ baseUrl, shell, fields, pipeline, limiter, contact, log = console.log }: ContactDeps) {
  const page = (status: number, title: string, body: string, headers: Record<string, string> = {}) =>
    new Response(renderPage(shell, { title, main: `<div class="column">${body}</div>`, current: pagePaths.contact }), {
      status,
      headers: { ...pageHeaders(), ...headers },
    });
  const writeToUs = `<p>You can also write to <a href="mailto:${e(contact.email)}">${e(contact.email)}</a>.</p>`;

  const siteOrigin = [new URL(baseUrl).origin];

  return async (request: Request, { ip, waitUntil }: HandlerContext): Promise<Response> => {
    // A form filed by a script with no page behind it is no person's brief: the page must be this site's.
    if (!fromAllowedOrigin(request, siteOrigin, { pageRequired: true })) {
      return page(
        403,
        "Not sent",
        `<h1>Not sent</h1><p>This form only accepts briefs sent from ${e(new URL(baseUrl).host)}.</p>${writeToUs}`,
      );
    }
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    const bytes = type === "application/x-www-form-urlencoded" ? await readCapped(request, maxFormBytes) : undefined;
    if (bytes === undefined)
      return page(
        400,
        "Not sent",
        `<h1>Not sent</h1><p>The form could not be read; it may be too long (${maxFormBytes / 1024} KB at most).</p>${writeToUs}`,
      );
    const form = new URLSearchParams(new TextDecoder().decode(bytes));

    const values = Object.fromEntries(fields.map((f) => [f.name, (form.get(f.name) ?? "").trim()]));
    let result: Awaited<ReturnType<typeof fileBrief>>;
    try {
      const quota = await limiter.consume("contact-form", ip);
      if (!quota.allowed) return tooMany(String(Math.max(1, quota.resetSeconds)));
      if ((form.get(honeypot) ?? "") !== "") {
        log(`contact form: discarded a submission that filled the hidden field (${ip})`);
        return confirmation(values.full_name ?? "", values.work_email ?? "", undefined);
      }
      const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
      result = await fileBrief({ body, channel: "form", clientId: `form:${ip}`, owner: `form:${ip}`, address: ip, waitUntil }, pipeline);
    } catch (error) {
      // The quota store or the lead store failed (they are one Upstash database): nothing was recorded.
      log(`contact form: the store failed, nothing recorded: ${String(error)}`);
      return page(
        503,
        "Not sent",
        `<h1>Your brief was not sent</h1><p>Something on our side failed and nothing was recorded. Please try again in a few minutes.</p>${writeToUs}`,
        { "Retry-After": "60" },
      );
    }
    if (result.kind === "invalid_brief")
      return page(
        422,
        "Check the form",
        `<h1>Almost there</h1><h2 id="${formAnchor}">Send a project brief</h2>${contactFormHtml(fields, { values, errors: result.errors })}`,
      );
    const outcome = outcomeOf(result, { studio: pipeline.studio, responseTime: contact.responseTime });
    if (outcome instanceof Refusal) {
      if (outcome.condition === "brief_quota_exceeded") return tooMany(outcome.options.headers?.["Retry-After"] ?? "3600");
      return page(400, "Not sent", `<h1>Not sent</h1>${writeToUs}`);
    }
    // The form never sends dry_run (it is not a field of the form).
    if (outcome.kind === "dry_run") return page(400, "Not sent", `<h1>Not sent</h1>${writeToUs}`);
    return confirmation(outcome.receipt.brief.full_name, outcome.receipt.brief.work_email, outcome.receipt.lead_id);
  };

  function tooMany(retryAfter: string) {
    return page(429, "Too many briefs", `<h1>Too many briefs from this network</h1><p>Please try again in an hour.</p>${writeToUs}`, {
      "Retry-After": retryAfter,
    });
  }

  function confirmation(name: string, email: string, leadId: string | undefined) {
    return page(
      200,
      "Brief sent",
      `<h1>Thank you${name ? `, ${e(name.split(" ")[0]!)}` : ""}.</h1><p class="lede">${e(contact.confirmation)}</p>${
        email ? `<p>We will write to <strong>${e(email)}</strong>. ${e(contact.responseTime)}</p>` : ""
      }${leadId ? `<p class="muted">Reference: ${e(leadId)}</p>` : ""}<p><a href="/">Back to the home page</a></p>`,
    );
  }
}
