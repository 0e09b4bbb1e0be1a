/** The x-markdown-tokens estimate: the common four-characters-per-token rule, rounded up. */
export const estimateTokens = (markdown: string) => Math.ceil(markdown.length / 4);
