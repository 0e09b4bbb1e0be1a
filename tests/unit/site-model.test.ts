import { describe, expect, it } from "vitest";
import { buildSite, type RawContent } from "../../src/site/model.ts";
import { contactMarkdown } from "../../src/markdown/contact.ts";
import { contactResource, contactResourceSchema } from "../../src/resources/contact.ts";
import { loadContentDir, replacing } from "../support/content.ts";

const sample = () => loadContentDir("content");

describe("buildSite", () => {
  it("assembles the sample content", async () => {
    const site = buildSite(await sample(), "https://example.com/");
    expect(site.baseUrl).toBe("https://example.com");
    expect(site.siteOffers.length).toBeGreaterThanOrEqual(3);
    expect(site.carePlan.price).toEqual({ amount: 450, currency: "USD", interval: "month" });
    expect(site.caseStudies.length).toBeGreaterThanOrEqual(3);
    expect(site.caseStudies.every((s) => s.results.length > 0)).toBe(true);
  });

  it("names the file and the field when a case study references an unknown offer", async () => {
    const raw: RawContent = await sample();
    raw.caseStudies[0]!.data.offer = "mega-site";
    expect(() => buildSite(raw, "https://example.com")).toThrow(/case-studies\/.*\.md: offer: "mega-site" is not an offer/);
  });

  it("names the field when a case study lists an unknown service", async () => {
    const raw = await sample();
    raw.caseStudies[1]!.data.services = ["marketing-sites", "seo"];
    expect(() => buildSite(raw, "https://example.com")).toThrow(/services\[1\]: "seo" is not a service id/);
  });

  it("resolves {{site:studio}} in every file but the guide's, from company.yaml's name: as text in fields, escaped in Markdown prose", async () => {
    const raw = await sample();
    raw.company[0]!.data.name = "Osprey *Works*";
    const home = raw.pages.find((p) => p.id === "home")!;
    home.body = "Ask {{site:studio}}: `{{site:studio}}`.";
    const site = buildSite(raw, "https://example.com");
    expect(site.pages.home.title).toBe("Osprey *Works*, web development for B2B companies");
    expect(site.pages.home.body).toBe("Ask Osprey \\*Works\\*: `Osprey *Works*`.");
    expect(site.company.summary).toMatch(/^Osprey \*Works\* is a nine-person/);
  });

  it("holds a resolved field to its limit", async () => {
    const raw = await sample();
    raw.company[0]!.data.name = "The Northwest Digital Design Collective";
    expect(() => buildSite(raw, "https://example.com")).toThrow(
      /pages\/home\.md: title: must be at most 70 characters once its placeholders are filled in/,
    );
  });

  it("names the file and the placeholder when a content file names a value the site does not have", async () => {
    const raw = await sample();
    raw.caseStudies[0]!.data.summary = "Built by {{site:owner}}.";
    expect(() => buildSite(raw, "https://example.com")).toThrow(
      /case-studies\/.*\.md: \{\{site:owner\}\}: the code provides no site "owner" \(it has: studio\)/,
    );
    raw.caseStudies[0]!.data.summary = "At most {{limit:mcp}} requests.";
    expect(() => buildSite(raw, "https://example.com")).toThrow(/\{\{limit:mcp\}\}: there is no kind "limit": the kinds are site/);
    const misspelt = await loadContentDir("content", { "pages/work.md": replacing({ "{{site:studio}}": "{{site:studo}}" }) });
    expect(() => buildSite(misspelt, "https://example.com")).toThrow(
      /pages\/work\.md: \{\{site:studo\}\}: the code provides no site "studo" \(it has: studio\)/,
    );
  });

  it("requires exactly one care plan and every page", async () => {
    const noPlan = await sample();
    noPlan.offers = noPlan.offers.filter((o) => o.data.kind !== "care_plan");
    expect(() => buildSite(noPlan, "https://example.com")).toThrow(/exactly one offer with kind "care_plan", found 0/);
    const noPage = await sample();
    noPage.pages = noPage.pages.filter((p) => p.id !== "developers");
    expect(() => buildSite(noPage, "https://example.com")).toThrow(/content\/pages\/developers\.md: \(file\): is missing/);
    const noGuidePage = await sample();
    noGuidePage.pages = noGuidePage.pages.filter((p) => p.id !== "developers-mcp");
    expect(() => buildSite(noGuidePage, "https://example.com")).toThrow(/content\/pages\/developers-mcp\.md: \(file\): is missing/);
  });
});

describe("the intro call for agents", () => {
  it("is named on the contact resource and its Markdown twin only where the deployment offers it", async () => {
    const raw = await sample();
    const offered = buildSite(raw, "https://example.com", { agentBooking: true });
    const agents = contactResource(offered).booking.agents;
    expect(agents).toMatchObject({
      free_times_url: "https://example.com/api/v1/free-times",
      bookings_url: "https://example.com/api/v1/bookings",
      mcp_tools: ["list_free_times", "book_intro_call", "cancel_intro_call"],
      documentation_url: "https://example.com/developers/booking",
    });
    expect(contactResourceSchema.parse(contactResource(offered))).toEqual(contactResource(offered));
    expect(contactMarkdown(offered)).toContain("an agent acting for you can also book it");

    const notOffered = buildSite(raw, "https://example.com");
    expect(contactResource(notOffered).booking).not.toHaveProperty("agents");
    expect(contactResource(notOffered).booking.url).toBe(offered.contact.booking.url);
    expect(contactMarkdown(notOffered)).not.toContain("an agent");
  });
});
