import { honeypot, type FormField } from "../briefs/form-fields.ts";
import type { FieldError } from "../briefs/validate.ts";
import { readForm } from "../http/body.ts";
import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { refuseOtherMethods } from "../http/methods.ts";
import { quota } from "../http/quota.ts";
import { Refusal } from "../http/refusal.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { quotaReport } from "../limits/headers.ts";
import type { Limiter } from "../limits/limiter.ts";
import { sendContactFormOperation, type BriefServices } from "../operations/briefs.ts";
import { perform } from "../operations/operation.ts";
import { pagePaths } from "../paths.ts";
import { contactFormAnchor as formAnchor } from "../resources/contact.ts";
import { escapeHtml as e, type PageShell } from "../site/function-page.ts";
import { contactPage, contactPages } from "./pages.ts";
import { contactFormHtml } from "./render.ts";

export interface ContactDeps {
  baseUrl: string;
  shell: PageShell;
  fields: FormField[];
  briefs: BriefServices;
  limiter: Limiter;
  contact: { email: string; confirmation: string };
  log?: (line: string) => void;
}

export const maxFormBytes = 32 * 1024;

/**
 * POST /contact: the site's contact form files a brief through the same pipeline as the API, first-party and without
 * OAuth (the client is `form:<ip>`). A door like the others: the core checks that a page of this site sent it, counts
 * it per address, reads the form; refusals are pages (pages.ts), and its answers are the form again with its errors, or
 * a confirmation.
 */
export function createContactHandler({ baseUrl, shell, fields, briefs, limiter, contact, log = console.error }: ContactDeps): Handler {
  const app = door(contactPages({ shell, email: contact.email, maxFormBytes }), log);
  const send = sendContactFormOperation(briefs.schema);
  // A form filed by a script with no page behind it is no person's brief: the page must be this site's.
  app.use(sameOrigin([new URL(baseUrl).origin], { pageRequired: true }));
  app.use(quota(limiter, "contact-form", { whenUnreachable: "refuse", log }));
  app.post(pagePaths.contact, async (c) => {
    const form = await readForm(c.req.raw, { limit: maxFormBytes, refuseAs: { malformed: "invalid_request" } });
    // The page sends each field once: a field given twice is no form of ours (nor a way to hide the honeypot's value).
    const repeated = [...form.keys()].find((name, i, names) => names.indexOf(name) !== i);
    if (repeated !== undefined) throw new Refusal("invalid_request", { detail: `The field ${repeated} is given more than once.` });
    const values = Object.fromEntries(fields.map((f) => [f.name, (form.get(f.name) ?? "").trim()]));
    if ((form.get(honeypot) ?? "") !== "") {
      log(`contact form: discarded a submission that filled the hidden field (${c.env.ip})`);
      return confirmation(values.full_name ?? "", values.work_email ?? "", undefined);
    }
    const ip = c.env.ip;
    const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    // First-party and without a token: the person's address is its owner, and what it counts against.
    const caller = {
      clientId: `form:${ip}`,
      owner: `form:${ip}`,
      address: ip,
      waitUntil: (work: Promise<unknown>) => c.env.waitUntil(work),
    };
    try {
      const { receipt, counted } = await perform(send, body, { caller, channel: "form", services: briefs });
      const page = confirmation(receipt.brief.full_name, receipt.brief.work_email, receipt.lead_id);
      // A new lead reports the brief quotas it counted, beside the form's own, as the API does.
      for (const [name, value] of Object.entries(counted ? quotaReport(counted) : {})) page.headers.set(name, value);
      return page;
    } catch (error) {
      if (!(error instanceof Refusal && error.condition === "invalid_brief")) throw error;
      const errors = error.options.extensions?.errors as FieldError[];
      const form = contactFormHtml(fields, { values, errors });
      return contactPage(shell, 422, "Check the form", `<h1>Almost there</h1><h2 id="${formAnchor}">Send a project brief</h2>${form}`);
    }
  });

  app.all(pagePaths.contact, refuseOtherMethods(["POST"], "The contact form is sent with POST."));

  function confirmation(name: string, email: string, leadId: string | undefined) {
    return contactPage(
      shell,
      200,
      "Brief sent",
      `<h1>Thank you${name ? `, ${e(name.split(" ")[0]!)}` : ""}.</h1><p class="lede">${e(contact.confirmation)}</p>${
        email ? `<p>We will write to <strong>${e(email)}</strong>. ${e(briefs.responseTime)}</p>` : ""
      }${leadId ? `<p class="muted">Reference: ${e(leadId)}</p>` : ""}<p><a href="/">Back to the home page</a></p>`,
    );
  }
  return handlerOf(app);
}
