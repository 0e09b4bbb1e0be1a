import type { Site } from "../site/model.ts";
import { describeChange, formatValue, freeIntroCall, usd } from "../site/format.ts";

import { opening, sampleNotice } from "./common.ts";
import { bullets, document, heading, link, text } from "./syntax.ts";
import { absolute, caseStudyPath, pagePaths } from "../paths.ts";

export function homeMarkdown(site: Site): string {
  const url = (path: string) => absolute(site.baseUrl, path);
  const { company, contact, carePlan } = site;
  return document(
    ...opening(site, site.pages.home),
    heading(2, "What we do"),
    bullets(company.services.map((s) => `**${text(s.name)}**: ${text(s.summary)}`)),
    `${link("Services, exclusions and stack", url(pagePaths.services))}`,
    heading(2, "Recent work"),
    bullets(
      site.caseStudies.slice(0, 3).map((s) => {
        const r = s.results[0]!;
        return `${link(s.title, url(caseStudyPath(s.id)))}: ${text(`${r.metric} ${formatValue(r.before, r.unit)} → ${formatValue(r.after, r.unit)} (${describeChange(r)}).`)}`;
      }),
    ),
    heading(2, "Offers"),
    text(
      `${site.siteOffers.map((o) => o.name).join(", ")}: each priced on ${freeIntroCall(contact.booking.duration_minutes)}. ${carePlan.name}: ${usd(carePlan.price.amount)} a month.`,
    ) + ` ${link("Compare offers", url(pagePaths.offers))}`,
    heading(2, "Contact"),
    `${link(contact.email, `mailto:${contact.email}`)} · ${link(contact.booking.label, contact.booking.url)} · ${link("Send a brief", url(pagePaths.contact))}`,
    sampleNotice(site),
  );
}
