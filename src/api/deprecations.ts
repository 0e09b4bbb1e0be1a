/**
 * Operations that are deprecated, declared here and nowhere else: the gateway adds the headers, the developer
 * page and the OpenAPI document mark them. Nothing under /api/v1 is deprecated today; the mechanism is proven by
 * a test fixture, and a test holds this table to the policy.
 */
export interface Deprecation {
  method: string;
  path: string;
  /** When the operation was (or will be) deprecated. */
  deprecatedAt: Date;
  /** When it stops working; at least 180 days after deprecatedAt. */
  sunsetAt: Date;
  /** What replaces it. */
  successor?: string;
}

export const deprecations: readonly Deprecation[] = [];

/** The least notice between a Deprecation and its Sunset. */
export const minimumNoticeDays = 180;

/** Rejects a table that breaks the versioning policy (sunset too soon, or before deprecation). */
export function checkDeprecations(table: readonly Deprecation[]): void {
  for (const d of table) {
    const days = (d.sunsetAt.getTime() - d.deprecatedAt.getTime()) / 86_400_000;
    if (days < minimumNoticeDays) {
      throw new Error(
        `${d.method} ${d.path}: the sunset must be at least ${minimumNoticeDays} days after deprecation (it is ${Math.floor(days)})`,
      );
    }
  }
}

export const findDeprecation = (table: readonly Deprecation[], method: string, path: string) =>
  table.find((d) => (d.method === method || (d.method === "GET" && method === "HEAD")) && d.path === path);

/** `Deprecation: @<epoch seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and the links that explain them. */
export function deprecationHeaders(d: Deprecation, documentationUrl: string): Record<string, string> {
  const links = [`<${documentationUrl}>; rel="deprecation"; type="text/html"`];
  if (d.successor) links.push(`<${d.successor}>; rel="successor-version"`);
  return {
    Deprecation: `@${Math.floor(d.deprecatedAt.getTime() / 1000)}`,
    Sunset: d.sunsetAt.toUTCString(),
    Link: links.join(", "),
  };
}
