import { brotliCompressSync, constants } from "node:zlib";

/**
 * What one page of the site may weigh, as `npm run bench -- pages` prints it and tests/build/page-budgets.test.ts holds
 * every built page to it:
 * - its HTML as the CDN sends it, Brotli at the quality the bench's static server uses: 14 KiB, what a first round
 *   trip carries (TCP's initial window of ten segments), so the page, its stylesheet inlined, arrives in one;
 * - its Markdown twin in o200k_base tokens: 10,000, a subject an agent reads in one go, with room beside it for its
 *   own work.
 */
export const pageBudgets = { htmlBrotliBytes: 14 * 1024, twinTokens: 10_000 } as const;

/** Brotli as scripts/bench/static-site.ts compresses text for the pages bench, as the CDN does: quality 11. */
export const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };

/** A page's bytes as that Brotli sends them. */
export const brotliBytes = (body: string | Buffer) => brotliCompressSync(body, brotliOptions).length;
