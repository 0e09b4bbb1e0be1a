import { describe, expect, it } from "vitest";
import { contactFields } from "../../src/briefs/form-fields.ts";
import { contactPages, waitInWords } from "../../src/contact/pages.ts";
import { contactFormHtml, personMessage } from "../../src/contact/render.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { pageShell } from "../../src/site/page-shell.ts";

/** The contact form's words for a person: its refusal pages, its waits, and each field error by the field's label. */
const email = "hello@studio.example";
/** Made in each test, so that a mutation run credits the test that reads them (a module-level call is no test's). */
const pages = (refusal: Refusal) => contactPages({ shell: pageShell(), email, maxFormBytes: 32 * 1024 })(refusal, {} as never);
const writeToUs = `<p>You can also write to <a href="mailto:${email}">${email}</a>.</p>`;

describe("waitInWords", () => {
  it.each([
    [0, "in a minute"],
    [1, "in a minute"],
    [60, "in a minute"],
    [61, "in 2 minutes"],
    [59 * 60, "in 59 minutes"],
    [59 * 60 + 1, "in an hour"],
    [60 * 60, "in an hour"],
    [89 * 60, "in an hour"],
    [90 * 60, "in 2 hours"],
    [5 * 3600, "in 5 hours"],
  ])("%d seconds -> %s", (seconds, words) => expect(waitInWords(seconds)).toBe(words));
});

describe("the contact form's refusal pages", () => {
  it("says an outage recorded nothing (503, Retry-After), and offers the studio's address", async () => {
    const res = pages(new Refusal("service_unavailable"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await res.text();
    expect(page).toContain("<title>Not sent");
    expect(page).toContain(
      "<h1>Your brief was not sent</h1><p>Something on our side failed and nothing was recorded. Please try again in a few minutes.</p>" +
        writeToUs,
    );
  });

  it("says a form out of order recorded nothing, with the address in its own sentence and not again", async () => {
    const page = await pages(new Refusal("misconfigured")).text();
    expect(page).toContain(
      `<h1>Your brief was not sent</h1><p>The form is out of order; nothing was recorded. Please write to <a href="mailto:${email}">${email}</a>.</p></div>`,
    );
    expect(page).not.toContain("You can also write to");
  });

  it("names too many briefs by the wait its Retry-After gives, an hour where it gives none", async () => {
    const quota = pages(new Refusal("brief_quota_exceeded", { headers: { "Retry-After": "120" } }));
    expect(quota.status).toBe(429);
    const page = await quota.text();
    expect(page).toContain("<title>Too many briefs");
    expect(page).toContain(`<h1>Too many briefs from this network</h1><p>Please try again in 2 minutes.</p>${writeToUs}`);
    expect(await pages(new Refusal("rate_limited")).text()).toContain("<p>Please try again in an hour.</p>");
  });

  it("says why a body could not be read: too long, not a form, or unreadable", async () => {
    const says = async (condition: "payload_too_large" | "unsupported_media_type" | "invalid_request") =>
      (await pages(new Refusal(condition)).text()).match(/<div class="column">(.*?)<\/div>/s)![1];
    expect(await says("payload_too_large")).toBe(`<h1>Not sent</h1><p>The form was too long to read (32 KB at most).</p>${writeToUs}`);
    expect(await says("unsupported_media_type")).toBe(
      `<h1>Not sent</h1><p>It was not sent as a form: send it from the form on the contact page.</p>${writeToUs}`,
    );
    expect(await says("invalid_request")).toBe(
      `<h1>Not sent</h1><p>The form could not be read: a field was given twice, or its text was not UTF-8.</p>${writeToUs}`,
    );
  });

  it("answers any other condition with its title", async () => {
    const res = pages(new Refusal("not_found"));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain(`<h1>Not sent</h1><p>Not found.</p>${writeToUs}`);
  });
});

describe("personMessage", () => {
  const fields = contactFields([]);
  const field = (name: string) => fields.find((f) => f.name === name);

  it("asks for a missing or empty field by its label", () => {
    expect(personMessage(field("company_name"), { field: "/company_name", code: "required", message: "company_name is required" })).toBe(
      "Enter company.",
    );
    expect(personMessage(field("full_name"), { field: "/full_name", code: "too_short", message: "full_name is empty" })).toBe(
      "Enter your name.",
    );
  });

  it("names the field's limit for a value too long, and the field's name where it has no form field", () => {
    const tooLong = { field: "/message", code: "too_long", message: "message is too long" } as const;
    expect(personMessage(field("message"), tooLong)).toBe(
      `About the project is too long: at most ${field("message")!.maxLength} characters.`,
    );
    expect(personMessage(undefined, { ...tooLong, field: "/notes" })).toBe("notes is too long: at most  characters.");
  });

  it("puts the label for the field's name at the start of any other message, and nowhere else", () => {
    const error = {
      field: "/work_email",
      code: "invalid_format",
      message: "work_email must be an e-mail address, not work_email",
    } as const;
    expect(personMessage(field("work_email"), error)).toBe("Work e-mail must be an e-mail address, not work_email");
    expect(personMessage(undefined, { field: "/phone", code: "invalid_format", message: "phone must be digits" })).toBe(
      "phone must be digits",
    );
  });
});

describe("contactFormHtml", () => {
  const fields = () => contactFields([{ id: "launch-site", name: "Launch site", pages: { min: 1, max: 8 } }]);

  it("renders the empty form: each control with its limits, hints and autocomplete, no error anywhere", () => {
    const html = contactFormHtml(fields());
    expect(html.startsWith('<form class="form" method="post" action="/contact" novalidate toolname="send_project_brief"')).toBe(true);
    expect(html).not.toContain("error");
    expect(html).not.toContain("aria-invalid");
    expect(html).toMatch(
      /<div class="field"><label for="full_name">Your name<\/label><input id="full_name" name="full_name" required maxlength="120" autocomplete="name" toolparamdescription="[^"]+" value=""><\/div>/,
    );
    expect(html).toMatch(
      /<input id="work_email" name="work_email" required maxlength="254" autocomplete="email" aria-describedby="work_email-hint" toolparamdescription="[^"]+" type="email" value="">/,
    );
    expect(html).toContain('<span class="hint" id="work_email-hint">We reply to this address.</span>');
    expect(html).toMatch(
      /<select id="site_size" name="site_size" toolparamdescription="[^"]+"><option value="" selected>Not sure yet<\/option><option value="launch-site">Launch site \(1–8 pages\)<\/option><\/select>/,
    );
    expect(html).toMatch(
      /<textarea id="message" name="message" maxlength="5000" aria-describedby="message-hint" toolparamdescription="[^"]+"><\/textarea>/,
    );
  });

  it("fills in what was sent, escaped, and selects the option sent", () => {
    const html = contactFormHtml(fields(), { values: { full_name: 'Ada "<A>"', site_size: "launch-site", message: "<b>hi</b>" } });
    expect(html).toContain('value="Ada &quot;&lt;A&gt;&quot;"');
    expect(html).toContain('<option value="">Not sure yet</option><option value="launch-site" selected>Launch site');
    expect(html).toContain(">&lt;b&gt;hi&lt;/b&gt;</textarea>");
  });

  it("lists every error in the summary, and renders every field one after the other", () => {
    const html = contactFormHtml(fields(), {
      errors: [
        { field: "/full_name", code: "required", message: "full_name is required" },
        { field: "/company_name", code: "required", message: "company_name is required" },
      ],
    });
    expect(html).toContain(
      '<ul><li><a href="#full_name">Enter your name.</a></li><li><a href="#company_name">Enter company.</a></li></ul></div><form',
    );
    expect(html).toMatch(/<\/div><div class="field has-error"><label for="company_name">/);
    expect(html).toMatch(/<\/select><\/div><div class="field"><label for="budget_range">/);
  });

  it("links an error for a field the form does not have to the summary itself", () => {
    const html = contactFormHtml(fields(), {
      errors: [{ field: "/colour", code: "unknown_field", message: "colour is not a brief field" }],
    });
    expect(
      html.startsWith('<div class="error-summary" role="alert" tabindex="-1" id="form-errors"><h3>Please check this field</h3><ul>'),
    ).toBe(true);
    expect(html).toContain('<li><a href="#form-errors">colour is not a brief field</a></li></ul></div><form');
    expect(html).not.toContain("has-error");
  });
});
