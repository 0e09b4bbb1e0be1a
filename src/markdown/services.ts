import type { Site } from "../site/model.ts";
import { groupBy } from "../site/format.ts";
import { opening, sampleNotice } from "./common.ts";
import { bullets, document, heading, table, text } from "./syntax.ts";

export function servicesMarkdown(site: Site): string {
  const { company } = site;
  return document(
    ...opening(site, site.pages.services),
    heading(2, "What we do"),
    ...company.services.flatMap((s) => [heading(3, s.name), text(s.summary)]),
    heading(2, "What we don't take on"),
    bullets(company.not_taken_on.map((x) => `**${text(x.name)}**: ${text(x.reason)}`)),
    heading(2, "Stack"),
    table(
      ["Category", "Technology", "Used for"],
      groupBy(company.stack, (t) => t.category).flatMap(([category, items]) =>
        items.map((t, i) => [i === 0 ? text(category) : "", text(t.name), text(t.used_for)]),
      ),
    ),
    sampleNotice(site),
  );
}
