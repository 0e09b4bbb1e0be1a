import type { Site } from "../site/model.ts";
import { range, sizesPricingNote, usd } from "../site/format.ts";

import { opening, sampleNotice } from "./common.ts";
import { bullets, document, heading, link, table, text } from "./syntax.ts";
import { absolute, pagePaths } from "../paths.ts";

export function offersMarkdown(site: Site): string {
  const { siteOffers, carePlan, contact } = site;
  return document(
    ...opening(site, site.pages.offers),
    heading(2, "Site sizes"),
    table(
      ["Size", "Best for", "Pages", "Timeline", "Price"],
      siteOffers.map((o) => [
        `**${text(o.name)}**`,
        text(o.best_for),
        range(o.pages, "pages"),
        range(o.timeline_weeks, "weeks"),
        "Priced on an intro call",
      ]),
    ),
    text(sizesPricingNote(contact.booking.duration_minutes)),
    ...siteOffers.flatMap((o) => [heading(3, o.name), text(o.summary), bullets(o.includes.map(text))]),
    heading(2, `${carePlan.name}: ${usd(carePlan.price.amount)} per month`),
    text(carePlan.summary),
    bullets(carePlan.includes.map(text)),
    text(`${carePlan.terms} Prices in USD.`),
    heading(2, "Next step"),
    `${link(contact.booking.label, contact.booking.url)}, or ${link("send a brief", absolute(site.baseUrl, pagePaths.contact))}.`,
    sampleNotice(site),
  );
}
