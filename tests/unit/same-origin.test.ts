import { describe, expect, it } from "vitest";
import { fromAllowedOrigin } from "../../src/http/same-origin.ts";

const site = "https://studio.example";
const post = (headers: Record<string, string>) => new Request(`${site}/contact`, { method: "POST", headers });

describe("fromAllowedOrigin", () => {
  it("takes a request whose Origin is allowed, and refuses another site's, null, or an empty one", () => {
    expect(fromAllowedOrigin(post({ origin: site }), [site])).toBe(true);
    for (const origin of ["https://evil.example", "null", "", "https://studio.example.evil.example"])
      expect(fromAllowedOrigin(post({ origin, referer: `${site}/contact` }), [site]), origin).toBe(false);
  });

  it("lets a request without Origin through (not a browser page), unless a page of the site must have sent it", () => {
    expect(fromAllowedOrigin(post({}), [site])).toBe(true);
    expect(fromAllowedOrigin(post({}), [site], { pageRequired: true })).toBe(false);
  });

  it("takes the page a Referer names where Origin is missing and a page is required: the site's, never another's", () => {
    const page = (referer: string) => fromAllowedOrigin(post({ referer }), [site], { pageRequired: true });
    expect(page(`${site}/contact?x=1`)).toBe(true);
    for (const referer of ["https://evil.example/contact", "not a url", "https://studio.example:8443/contact"])
      expect(page(referer), referer).toBe(false);
  });
});
