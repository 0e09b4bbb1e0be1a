import { inAnyCase, prefersAlternative } from "../accept.ts";

/**
 * Representation choice for pages: Markdown only when the client names text/markdown explicitly with q > 0 and at
 * least the q it gives text/html. Wildcards never select Markdown, so browsers and generic fetchers keep getting HTML.
 */
export const prefersMarkdown = (accept: string | null | undefined): boolean =>
  prefersAlternative(accept, { alternative: "text/markdown", usual: "text/html", ties: "alternative" });

/** The twins' edge condition (functions/edge/markdown.ts): the request's Accept mentions text/markdown, in any case. */
export const mentionsMarkdown = inAnyCase("text/markdown");
