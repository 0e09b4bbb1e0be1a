import { oauthBase } from "../paths.ts";
/**
 * What the site tells crawlers and AI agents. An agency changes these tables to change its policy; robots.txt, the
 * Content-Signal and Content-Usage headers follow.
 */

/**
 * The one table of usage preferences: each use by its name in the two vocabularies that state it, whether the site
 * allows it, and what it means. Content Signals (contentsignals.org) has three uses; the IETF aipref vocabulary (draft-ietf-aipref-vocab)
 * has two, `search` and `train-ai`, and nothing for AI input at answer time (its `ai-use` category was removed), so
 * that preference is stated in Content Signals only.
 */
export const usagePreferences = [
  { contentSignal: "search", aipref: "search", allowed: true, meaning: "build a search index and show links and snippets." },
  {
    contentSignal: "ai-input",
    aipref: undefined,
    allowed: true,
    meaning: "use the content as input to AI models answering a question.",
  },
  { contentSignal: "ai-train", aipref: "train-ai", allowed: false, meaning: "train or fine-tune AI models." },
] as const;

/** Content Signals: `search=yes, ai-input=yes, ai-train=no`. */
export const contentSignals = Object.fromEntries(usagePreferences.map((p) => [p.contentSignal, p.allowed ? "yes" : "no"])) as Record<
  (typeof usagePreferences)[number]["contentSignal"],
  "yes" | "no"
>;

export const contentSignalValue = Object.entries(contentSignals)
  .map(([k, v]) => `${k}=${v}`)
  .join(", ");

/**
 * aipref's Content-Usage (draft-ietf-aipref-attach), a Structured Fields dictionary of Tokens `y` and `n`:
 * `search=y, train-ai=n`. The same statement in robots.txt and in the header.
 */
export const contentUsageValue = usagePreferences.flatMap((p) => (p.aipref ? [`${p.aipref}=${p.allowed ? "y" : "n"}`] : [])).join(", ");

/** The headers that state the preferences on a page, a twin and an /api read. */
export const usageHeaders: [string, string][] = [
  ["Content-Signal", contentSignalValue],
  ["Content-Usage", contentUsageValue],
];

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
