import { describe, expect, it } from "vitest";
import { briefLimits } from "../../src/briefs/schema.ts";
import { policies } from "../../src/limits/policies.ts";
import { contactFormAnchor } from "../../src/resources/contact.ts";
import { form } from "../support/calls.ts";
import { freshBrief } from "../support/briefs.ts";
import { fileDeployment } from "../support/deployment.ts";

/**
 * POST /contact in-process, as the platform hands it to the contact function: the person's confirmation page, the form
 * again with its errors, and each refusal as a page of the site. tests/runtime/front.test.ts and tests/browser/contact.test.ts
 * send the form through npm start and a browser.
 */
const { d } = fileDeployment("local");

const person = () => {
  const { full_name, company_name, work_email } = freshBrief();
  return { full_name, company_name, work_email };
};
const leadsOf = async (owner: string) => (await d.leads.list(500)).filter((lead) => lead.owner === owner);
const mailto = () => `<a href="mailto:${d.resources.contact.email}">${d.resources.contact.email}</a>`;

describe("the door", () => {
  // First in the file: the contact function is built on its first request, and this test is that request.
  it("takes only a POST, and only from a page of this site: a form with neither Origin nor Referer is no page's", async () => {
    const put = await d.contact({ method: "PUT", body: "" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST");
    await put.body?.cancel();
    const request = new Request(`${d.baseUrl}/contact`, form(person()));
    request.headers.set("host", new URL(d.baseUrl).host);
    const pageless = await d.serve(request);
    expect(pageless.status).toBe(403);
    expect(await pageless.text()).toContain("This form only accepts briefs sent from its own page on this site.");
  });
});

describe("a form a person sent from the contact page", () => {
  it("files the brief as the form's own (channel, client and owner are the address) and thanks them by first name", async () => {
    const ip = d.nextIp();
    const sent = { ...person(), full_name: "<b>Ada</b> Lovelace", message: "  A site for engines.  ", budget_range: "" };
    const res = await d.contact(form(sent), ip);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // The brief quotas it counted, beside the form's own; the single-valued fields are the grant's (its address's).
    const perGrant = `"briefs-per-grant";r=${policies["briefs-per-grant"].quota - 1}`;
    expect(res.headers.get("ratelimit")).toContain(`"contact-form";r=${policies["contact-form"].quota - 1}`);
    expect(res.headers.get("ratelimit")).toContain(perGrant);
    expect(res.headers.get("ratelimit-remaining")).toBe(String(policies["briefs-per-grant"].quota - 1));
    const page = await res.text();
    expect(page).toContain("<title>Brief sent");
    expect(page).toContain("<h1>Thank you, &lt;b&gt;Ada&lt;/b&gt;.</h1>");
    expect(page).toContain(`<p class="lede">${d.resources.site.contact_confirmation}</p>`);
    expect(page).toContain(`<p>We will write to <strong>${sent.work_email}</strong>. ${d.resources.site.response_time}</p>`);
    const [lead] = await leadsOf(`form:${ip}`);
    expect(lead).toMatchObject({ channel: "form", client_id: `form:${ip}`, owner: `form:${ip}`, address: ip });
    // Each value trimmed; an empty select is no value at all.
    expect(lead!.brief).toMatchObject({ full_name: sent.full_name, message: "A site for engines." });
    expect(lead!.brief).not.toHaveProperty("budget_range");
    expect(page).toContain(`<p class="muted">Reference: ${lead!.id}</p>`);
    // The studio's e-mail about it goes out after the answer, in the request's waitUntil.
    await d.settle();
    expect(d.postmark.sent.some((m) => JSON.stringify(m.body).includes(lead!.id))).toBe(true);
    // Nothing else on the page offers the studio's address: the person already reached it.
    expect(page).not.toContain("You can also write to");
  });

  it("answers a form that filled the hidden field as if it were sent, and files nothing", async () => {
    const ip = d.nextIp();
    const res = await d.contact(form({ ...person(), full_name: "Bot Person", website: "https://spam.example" }), ip);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(
      `<h1>Thank you, Bot.</h1><p class="lede">${d.resources.site.contact_confirmation}</p><p>We will write to <strong>`,
    );
    expect(page).not.toContain("Reference:");
    expect(await leadsOf(`form:${ip}`)).toEqual([]);
  });

  it("thanks nobody by name, and names no address, where the hidden field came without them", async () => {
    const res = await d.contact(form({ website: "x" }));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(
      `<div class="column"><h1>Thank you.</h1><p class="lede">${d.resources.site.contact_confirmation}</p><p><a href="/">Back to the home page</a></p></div>`,
    );
  });
});

describe("a form with errors", () => {
  it("is answered with the form again (422): what was sent filled in, each error by its label, at the top and at its field", async () => {
    const ip = d.nextIp();
    const sent = {
      full_name: "",
      company_name: "C".repeat(briefLimits.company_name + 1),
      work_email: "  not-an-address ",
      message: "Hello",
    };
    const res = await d.contact(form(sent), ip);
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain("<title>Check the form");
    expect(page).toContain("<h1>Almost there</h1>");
    expect(page).toContain(`<h2 id="${contactFormAnchor}">Send a project brief</h2>`);
    expect(page).toContain('<form class="form" method="post" action="/contact" novalidate toolname="send_project_brief" tooldescription="');
    expect(page).toContain("<h3>Please check these 3 fields</h3>");
    expect(page).toContain('<li><a href="#full_name">Enter your name.</a></li>');
    expect(page).toContain(`<li><a href="#company_name">Company is too long: at most ${briefLimits.company_name} characters.</a></li>`);
    expect(page).toMatch(/<li><a href="#work_email">Work e-mail [^<]+<\/a><\/li>/);
    expect(page).toContain('<span class="field-error" id="full_name-error">Enter your name.</span>');
    expect(page).toContain('<div class="field has-error"><label for="company_name">');
    expect(page).toContain(`value="${sent.company_name}"`);
    expect(page).toContain('value="not-an-address"');
    expect(page).toContain('aria-describedby="work_email-hint work_email-error" aria-invalid="true"');
    expect(page).toMatch(/<textarea id="message" name="message"[^>]*>Hello<\/textarea>/);
    // The optional fields say so; a select keeps its empty choice; the hidden field is sent empty, never typed into.
    expect(page).toContain('<label for="budget_range">Budget (USD) <span class="muted">(optional)</span></label>');
    expect(page).toContain('<option value="" selected>Rather not say</option>');
    expect(page).toContain('<input id="website" name="website" tabindex="-1" autocomplete="off" readonly>');
    expect(page).toContain('<button class="button primary" type="submit">Send the brief</button></form>');
    expect(await leadsOf(`form:${ip}`)).toEqual([]);
  });

  it("names one field as this field", async () => {
    const res = await d.contact(form({ ...person(), full_name: "" }));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("<h3>Please check this field</h3>");
  });
});

describe("the contact form's refusals, each a page that offers the studio's address", () => {
  it("refuses a form sent from another site (403)", async () => {
    const res = await d.contact(form(person(), { origin: "https://evil.example" }));
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("<title>Not sent");
    expect(page).toContain("This form only accepts briefs sent from its own page on this site.");
    expect(page).toContain(`<p>You can also write to ${mailto()}.</p>`);
  });

  it("refuses a field given twice, the hidden one included (400), and files nothing", async () => {
    const ip = d.nextIp();
    for (const body of [
      "full_name=Dup+One&full_name=Dup+Two&company_name=B&work_email=dup%40example.com",
      "full_name=Bot&company_name=Spam&work_email=bot%40example.com&website=&website=https%3A%2F%2Fspam.example",
    ]) {
      const res = await d.contact({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }, ip);
      expect(res.status, body).toBe(400);
      const page = await res.text();
      expect(page).toContain("The form could not be read: a field was given twice, or its text was not UTF-8.");
      expect(page).toContain(`<p>You can also write to ${mailto()}.</p>`);
    }
    expect(await leadsOf(`form:${ip}`)).toEqual([]);
  });

  it("says a body of another type is not a form (415)", async () => {
    const res = await d.contact({ method: "POST", headers: { "content-type": "text/plain" }, body: "full_name=A" });
    expect(res.status).toBe(415);
    expect(await res.text()).toContain("It was not sent as a form: send it from the form on the contact page.");
  });

  it("names the form's own limit for a body too large to read (413)", async () => {
    const res = await d.contact(form({ ...person(), message: "x".repeat(40 * 1024) }));
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The form was too long to read (32 KB at most).");
  });

  it("counts every form from one address: past its quota it says when to try again (429, Retry-After)", async () => {
    const ip = d.nextIp();
    // Forms with errors count too, and file nothing.
    for (let i = 0; i < 20; i++) expect((await d.contact(form({}), ip)).status).toBe(422);
    const res = await d.contact(form(person()), ip);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    const page = await res.text();
    expect(page).toContain("<title>Too many briefs");
    expect(page).toContain("<h1>Too many briefs from this network</h1>");
    expect(page).toMatch(/<p>Please try again in (a minute|\d+ minutes|an hour)\.<\/p>/);
    expect(page).toContain(`<p>You can also write to ${mailto()}.</p>`);
    expect(await leadsOf(`form:${ip}`)).toEqual([]);
  });
});
