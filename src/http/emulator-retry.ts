/**
 * netlify dev answers a 403 or 404 from an edge function or a function by calling it again at `<path>.html`,
 * `<path>.htm`, `<path>/index.html` and `<path>/index.htm` (it mimics the CDN's pretty URLs). Handlers map such a
 * call back to the path the client asked for, so the refusal arrives unchanged and is never counted twice.
 * Production never makes these calls; handlers apply this only under netlify dev.
 */
export const requestedPath = (pathname: string) => pathname.replace(/(?:\/index)?\.html?$/, "");
