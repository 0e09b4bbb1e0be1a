/**
 * Whether a request comes from one of `allowed` origins, by what a browser says of it: its `Origin`, which browsers send
 * with every cross-origin request and every form POST. A request without one is not from a browser page and passes,
 * unless `pageRequired` (a form only a page of the site may send): then the page named by `Referer`, which old browsers
 * send instead under the site's referrer policy, must be one of them.
 */
export function fromAllowedOrigin(request: Request, allowed: readonly string[], { pageRequired = false } = {}): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return allowed.includes(origin);
  if (!pageRequired) return true;
  const referer = request.headers.get("referer");
  return referer !== null && URL.canParse(referer) && allowed.includes(new URL(referer).origin);
}
