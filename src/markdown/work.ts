import type { Site, SiteCaseStudy } from "../site/model.ts";
import { describeChange, formatValue, longDate } from "../site/format.ts";

import { absolutizeLinks, opening, sampleNotice } from "./common.ts";
import { bullets, document, heading, link, table, text } from "./syntax.ts";
import { absolute, caseStudyPath, pagePaths } from "../paths.ts";

const resultsTable = (study: SiteCaseStudy) =>
  table(
    ["Metric", "Before", "After", "Change", "Period", "Method"],
    study.results.map((r) => [
      text(r.metric),
      text(formatValue(r.before, r.unit)),
      text(formatValue(r.after, r.unit)),
      text(describeChange(r)),
      text(r.period),
      text(r.method),
    ]),
  );

export function workMarkdown(site: Site): string {
  return document(
    ...opening(site, site.pages.work),
    ...site.caseStudies.flatMap((s) => [
      heading(2, s.title),
      `${text(s.summary)} ${link("Read the case study", absolute(site.baseUrl, caseStudyPath(s.id)))}`,
      bullets(
        s.results.map((r) =>
          text(`${r.metric}: ${formatValue(r.before, r.unit)} → ${formatValue(r.after, r.unit)} (${describeChange(r)})`),
        ),
      ),
    ]),
    sampleNotice(site),
  );
}

export function caseStudyMarkdown(site: Site, study: SiteCaseStudy): string {
  const offer = site.siteOffers.find((o) => o.id === study.offer);
  const services = study.services.map((id) => site.company.services.find((s) => s.id === id)?.name ?? id);
  return document(
    heading(1, study.title),
    text(study.summary),
    table(
      ["Client", "Industry", "Location", "Launched", "Timeline", "Offer"],
      [
        [
          text(study.client.name),
          text(study.client.industry),
          text(study.client.location),
          longDate(study.launched),
          `${study.timeline_weeks} weeks`,
          text(offer?.name ?? study.offer),
        ],
      ],
    ),
    heading(2, "The problem"),
    text(study.problem),
    heading(2, "What we built"),
    bullets(study.built.map(text)),
    text(`Services: ${services.join(", ")}. Stack: ${study.stack.join(", ")}.`),
    heading(2, "Results"),
    resultsTable(study),
    heading(2, "The story"),
    absolutizeLinks(study.story, site.baseUrl),
    `${link("All case studies", absolute(site.baseUrl, pagePaths.work))} · ${link("Contact", absolute(site.baseUrl, pagePaths.contact))}`,
    sampleNotice(site),
  );
}
