// @ts-check
import mdx from "@astrojs/mdx";
import { defineConfig } from "astro/config";

// The public base URL: Netlify sets URL for every build; the local runtime sets it to http://localhost:$PORT.
const site = process.env.URL ?? `http://localhost:${process.env.PORT ?? 8888}`;

export default defineConfig({
  site,
  // Tests build broken copies of content/ side by side with the real build; each gets its own cache.
  ...(process.env.FRONTDOOR_CACHE_DIR ? { cacheDir: process.env.FRONTDOOR_CACHE_DIR } : {}),
  output: "static",
  trailingSlash: "never",
  build: { format: "file", inlineStylesheets: "always" },
  integrations: [mdx()],
  devToolbar: { enabled: false },
});
