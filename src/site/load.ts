import { getCollection } from "astro:content";
import { buildSite, type Site } from "./model.ts";

let site: Promise<Site> | undefined;

/** The site model for Astro pages and endpoints, built once per build from the content collections. */
export function loadSite(): Promise<Site> {
  site ??= (async () => {
    const [company, contact, offers, caseStudies, pages, developerGuide] = await Promise.all([
      getCollection("company"),
      getCollection("contact"),
      getCollection("offers"),
      getCollection("caseStudies"),
      getCollection("pages"),
      getCollection("developerGuide"),
    ]);
    return buildSite({ company, contact, offers, caseStudies, pages, developerGuide }, import.meta.env.SITE ?? "http://localhost:8888");
  })();
  return site;
}
