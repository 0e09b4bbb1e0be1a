import type { z } from "zod";
import { caseStudySchema, type CaseStudy } from "../schemas/case-study.ts";
import { companySchema, type Company } from "../schemas/company.ts";
import { contactSchema, type Contact } from "../schemas/contact.ts";
import { offerSchema, type CarePlan, type Offer, type SiteOffer } from "../schemas/offer.ts";
import type { GuideSection } from "../schemas/guide-section.ts";
import { pageSchema, type Page } from "../schemas/page.ts";
import { ContentError } from "./content-error.ts";
import { resolveFields, resolveMarkdown, siteValues } from "./placeholders.ts";
import { notFoundPageId } from "./routes.ts";
import { guideSubjects, pagePaths, type GuidePageId, type GuideSubject, type PageId } from "../paths.ts";

/** One content entry as a loader hands it over: its id (the file name), validated data, body and file. */
export interface Entry<T> {
  id: string;
  data: T;
  body?: string;
  filePath?: string;
}

export interface RawContent {
  company: Entry<Company>[];
  contact: Entry<Contact>[];
  offers: Entry<Offer>[];
  caseStudies: Entry<CaseStudy>[];
  pages: Entry<Page>[];
  developerGuide: Entry<GuideSection>[];
}

export interface SitePage extends Page {
  id: string;
  body: string;
}

/** One section of the developer guide: its anchor (the file name), page, title, layout, and Markdown with placeholders. */
export interface SiteGuideSection extends GuideSection {
  id: string;
  body: string;
  /** The content file, for error messages. */
  file: string;
}

export interface SiteCaseStudy extends CaseStudy {
  id: string;
  story: string;
}

/** The whole site as one validated value: every surface (HTML, Markdown, JSON, MCP, A2A) is rendered from it. */
export interface Site {
  baseUrl: string;
  company: Company;
  contact: Contact;
  siteOffers: (SiteOffer & { id: string })[];
  carePlan: CarePlan & { id: string };
  caseStudies: SiteCaseStudy[];
  pages: Record<PageId | typeof notFoundPageId, SitePage>;
  /** The developer guide's pages below its index (whose page is `pages.developers`), from content/pages/developers-<id>.md. */
  guidePages: Record<GuideSubject, SitePage>;
  /** The developer guide's sections, each page's in order; rendered by src/guide/. */
  developerGuide: SiteGuideSection[];
  /** Whether agents can book the intro call here (Cal.com configured for the deployment): tools, skills and pages say so. */
  agentBooking: boolean;
}

export interface SiteOptions {
  /** Cal.com is configured (src/booking/config.ts): agents can book the intro call. */
  agentBooking?: boolean;
}

export { ContentError };

/** The content file of a page of the developer guide below its index: `mcp` is content/pages/developers-mcp.md. */
export const guidePageContentId = (id: GuideSubject) => `developers-${id}`;

const fileOf = (entry: Entry<unknown>, fallback: string) => entry.filePath ?? fallback;

function single<T>(entries: Entry<T>[], file: string): Entry<T> {
  const [entry, ...rest] = entries;
  if (!entry || rest.length > 0) throw new ContentError(file, "(file)", entry ? "found more than one" : "is missing");
  return entry;
}

/**
 * Checks what crosses files (references, required pages, exactly one care plan), resolves the `{{site:…}}` placeholders
 * of every file but the developer guide's (src/guide/ resolves those, with the code's values too) and assembles the site.
 */
export function buildSite(raw: RawContent, baseUrl: string, { agentBooking = false }: SiteOptions = {}): Site {
  const companyEntry = single(raw.company, "content/company.yaml");
  const values = siteValues(companyEntry.data);
  // Checked again once resolved: a longer name must not take a title past its limit unseen.
  const resolved = <T>(entry: Entry<T>, file: string, schema: z.ZodType<T>): Entry<T> => {
    const data = schema.safeParse(resolveFields(entry.data, file, values));
    if (!data.success) {
      const [issue] = data.error.issues;
      throw new ContentError(file, issue!.path.join("."), `${issue!.message} once its placeholders are filled in`);
    }
    return { ...entry, data: data.data, body: entry.body === undefined ? undefined : resolveMarkdown(entry.body, file, values) };
  };
  const company = resolved(companyEntry, fileOf(companyEntry, "content/company.yaml"), companySchema).data;
  const contactEntry = single(raw.contact, "content/contact.yaml");
  const contact = resolved(contactEntry, fileOf(contactEntry, "content/contact.yaml"), contactSchema).data;

  const byOrder = <T extends { data: { order: number } }>(a: T, b: T) => a.data.order - b.data.order;
  const offers = raw.offers.map((o) => resolved(o, fileOf(o, `content/offers/${o.id}.yaml`), offerSchema)).sort(byOrder);
  const siteOffers = offers.flatMap((o) => (o.data.kind === "site" ? [{ id: o.id, ...o.data }] : []));
  const carePlans = offers.flatMap((o) => (o.data.kind === "care_plan" ? [{ id: o.id, ...o.data }] : []));
  if (siteOffers.length === 0) throw new ContentError("content/offers/", "kind", 'no offer has kind "site"');
  if (carePlans.length !== 1) {
    throw new ContentError("content/offers/", "kind", `expected exactly one offer with kind "care_plan", found ${carePlans.length}`);
  }

  const offerIds = new Set(offers.map((o) => o.id));
  const serviceIds = new Set(company.services.map((s) => s.id));
  const caseStudies = raw.caseStudies
    .map((original) => {
      const file = fileOf(original, `content/case-studies/${original.id}.md`);
      const entry = resolved(original, file, caseStudySchema);
      if (!offerIds.has(entry.data.offer)) {
        throw new ContentError(file, "offer", `"${entry.data.offer}" is not an offer (known: ${[...offerIds].join(", ")})`);
      }
      entry.data.services.forEach((service, i) => {
        if (!serviceIds.has(service)) {
          throw new ContentError(
            file,
            `services[${i}]`,
            `"${service}" is not a service id in content/company.yaml (known: ${[...serviceIds].join(", ")})`,
          );
        }
      });
      return { id: entry.id, ...entry.data, story: (entry.body ?? "").trim() };
    })
    .sort((a, b) => b.published.getTime() - a.published.getTime() || a.id.localeCompare(b.id));

  const pageEntries = new Map(raw.pages.map((p) => [p.id, p]));
  const page = (id: string): SitePage => {
    const file = `content/pages/${id}.md`;
    const original = pageEntries.get(id);
    if (!original) throw new ContentError(file, "(file)", "is missing; every page of the site needs one");
    const entry = resolved(original, fileOf(original, file), pageSchema);
    return { id, ...entry.data, body: (entry.body ?? "").trim() };
  };
  const required = [...Object.keys(pagePaths), notFoundPageId] as (PageId | typeof notFoundPageId)[];
  const pages = Object.fromEntries(required.map((id) => [id, page(id)])) as Site["pages"];
  const guidePages = Object.fromEntries(guideSubjects.map((id) => [id, page(guidePageContentId(id))])) as Site["guidePages"];

  const guidePageOrder = (id: GuidePageId) => (id === "index" ? -1 : guideSubjects.indexOf(id));
  const developerGuide = raw.developerGuide
    .map((entry) => ({ id: entry.id, ...entry.data, body: entry.body ?? "", file: fileOf(entry, `content/developers/${entry.id}.md`) }))
    .sort((a, b) => guidePageOrder(a.page) - guidePageOrder(b.page) || a.order - b.order || a.id.localeCompare(b.id));
  for (const id of guideSubjects) {
    if (!developerGuide.some((s) => s.page === id))
      throw new ContentError("content/developers/", "page", `no section is on the page "${id}"; each page of the guide needs one`);
  }

  return {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    company,
    contact,
    siteOffers,
    carePlan: carePlans[0]!,
    caseStudies,
    pages,
    guidePages,
    developerGuide,
    agentBooking,
  };
}
