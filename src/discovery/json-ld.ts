import type { Site, SiteCaseStudy } from "../site/model.ts";
import { absolute, caseStudyPath, pagePaths } from "../paths.ts";

/** schema.org structured data (JSON-LD) for the pages, from the same site model as everything else. */
type Thing = Record<string, unknown>;

const organizationId = (site: Site) => `${site.baseUrl}/#organization`;

function organization(site: Site): Thing {
  const { company, contact } = site;
  return {
    "@type": "Organization",
    "@id": organizationId(site),
    name: company.name,
    legalName: company.legal_name,
    description: company.summary,
    slogan: company.tagline,
    url: absolute(site.baseUrl, "/"),
    logo: absolute(site.baseUrl, "/favicon.svg"),
    email: contact.email,
    foundingDate: String(company.founded),
    numberOfEmployees: { "@type": "QuantitativeValue", value: company.team_size },
    address: {
      "@type": "PostalAddress",
      addressLocality: company.location.city,
      addressRegion: company.location.region,
      addressCountry: company.location.country,
    },
    knowsAbout: company.stack.map((t) => t.name),
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "sales",
      email: contact.email,
      url: absolute(site.baseUrl, pagePaths.contact),
      availableLanguage: company.languages,
    },
  };
}

function offerCatalog(site: Site): Thing {
  const provider = { "@id": organizationId(site) };
  return {
    "@type": "OfferCatalog",
    name: `${site.company.name} offers`,
    url: absolute(site.baseUrl, pagePaths.offers),
    itemListElement: [
      ...site.siteOffers.map((o) => ({
        "@type": "Offer",
        name: o.name,
        description: `${o.summary} Priced on an intro call.`,
        itemOffered: { "@type": "Service", name: o.name, serviceType: "Website design and development", provider },
      })),
      {
        "@type": "Offer",
        name: site.carePlan.name,
        description: site.carePlan.summary,
        price: site.carePlan.price.amount,
        priceCurrency: site.carePlan.price.currency,
        priceSpecification: {
          "@type": "UnitPriceSpecification",
          price: site.carePlan.price.amount,
          priceCurrency: "USD",
          unitText: "MONTH",
        },
        itemOffered: { "@type": "Service", name: site.carePlan.name, serviceType: "Website maintenance", provider },
      },
    ],
  };
}

const services = (site: Site): Thing[] =>
  site.company.services.map((s) => ({
    "@type": "Service",
    name: s.name,
    description: s.summary,
    provider: { "@id": organizationId(site) },
  }));

function caseStudy(site: Site, study: SiteCaseStudy): Thing {
  return {
    "@type": "Article",
    headline: study.title,
    description: study.summary,
    url: absolute(site.baseUrl, caseStudyPath(study.id)),
    datePublished: study.published.toISOString().slice(0, 10),
    author: { "@id": organizationId(site) },
    publisher: { "@id": organizationId(site) },
    about: { "@type": "Organization", name: study.client.name, address: study.client.location },
  };
}

/** The graph for one page: the organisation everywhere; services, offers or a case study where the page shows them. */
export function jsonLd(site: Site, path: string): string {
  const graph: Thing[] = [
    organization(site),
    {
      "@type": "WebSite",
      "@id": `${site.baseUrl}/#website`,
      url: absolute(site.baseUrl, "/"),
      name: site.company.name,
      publisher: { "@id": organizationId(site) },
    },
  ];
  if (path === pagePaths.services || path === pagePaths.home) graph.push(...services(site));
  if (path === pagePaths.offers) graph.push(offerCatalog(site));
  const study = site.caseStudies.find((s) => caseStudyPath(s.id) === path);
  if (study) graph.push(caseStudy(site, study));
  if (path === pagePaths.work)
    graph.push({
      "@type": "ItemList",
      itemListElement: site.caseStudies.map((s, i) => ({
        "@type": "ListItem",
        position: i + 1,
        url: absolute(site.baseUrl, caseStudyPath(s.id)),
      })),
    });
  // Safe inside <script>: no "</" can close the element early.
  return JSON.stringify({ "@context": "https://schema.org", "@graph": graph }).replace(/</g, "\\u003c");
}
