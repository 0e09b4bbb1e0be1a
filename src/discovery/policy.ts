import { oauthBase } from "../paths.ts";
/**
 * What the site tells crawlers and AI agents. An agency changes these two tables to change its policy; robots.txt,
 * the Content-Signal headers and the developer page follow.
 */

/** Content Signals (contentsignals.org): search indexing, use as AI input at answer time, AI training. */
export const contentSignals = { search: "yes", "ai-input": "yes", "ai-train": "no" } as const;

export const contentSignalValue = Object.entries(contentSignals)
  .map(([k, v]) => `${k}=${v}`)
  .join(", ");

/** AI crawlers named explicitly, so the choice is deliberate rather than inherited from `*`. */
export const aiCrawlers: { agent: string; purpose: string; allow: boolean }[] = [
  { agent: "GPTBot", purpose: "OpenAI training crawler", allow: false },
  { agent: "OAI-SearchBot", purpose: "OpenAI search", allow: true },
  { agent: "ChatGPT-User", purpose: "ChatGPT fetching for a user", allow: true },
  { agent: "ClaudeBot", purpose: "Anthropic training crawler", allow: false },
  { agent: "Claude-SearchBot", purpose: "Anthropic search", allow: true },
  { agent: "Claude-User", purpose: "Claude fetching for a user", allow: true },
  { agent: "PerplexityBot", purpose: "Perplexity search", allow: true },
  { agent: "Perplexity-User", purpose: "Perplexity fetching for a user", allow: true },
  { agent: "Google-Extended", purpose: "Gemini training", allow: false },
  { agent: "Applebot-Extended", purpose: "Apple AI training", allow: false },
  { agent: "CCBot", purpose: "Common Crawl (training corpora)", allow: false },
  { agent: "Bytespider", purpose: "ByteDance training crawler", allow: false },
  { agent: "meta-externalagent", purpose: "Meta AI training crawler", allow: false },
];

/** Paths no crawler needs: the consent screen is for a person in the middle of an OAuth flow. */
export const disallowedPaths = [`${oauthBase}/`];
