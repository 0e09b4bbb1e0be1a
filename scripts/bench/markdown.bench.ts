import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveMarkdownTwin, type StaticFetch } from "../../src/twins/serve.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * The Markdown negotiation: the edge handler called in-process as the edge calls it (Accept parsed by q-values, the
 * twin fetched from the static files, headers added) against the bare read of the same prebuilt twin it hands on.
 * Static files come from memory, as from a CDN cache, so only the handler's own work differs.
 */
export default async function markdownBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const files = new Map<string, string>();
  for (const path of ["/services.md", "/404.md"]) files.set(path, await readFile(join(root, "dist", path), "utf8"));
  const fetchStatic: StaticFetch = async (path) => {
    const file = files.get(path);
    return file
      ? new Response(file, { headers: { "content-type": "text/markdown; charset=utf-8", etag: '"v1"' } })
      : new Response(null, { status: 404 });
  };
  const accept = "text/markdown, text/html;q=0.9, */*;q=0.8";
  const options = { warmup: 200, count: 5_000 };
  const bare = await measure(async () => (await fetchStatic("/services.md")).text(), options);
  const negotiated = await measure(async () => {
    const response = await serveMarkdownTwin(new Request("https://studio.example/services", { headers: { accept } }), fetchStatic);
    if (response?.status !== 200) throw new Error(`the twin handler answered ${response?.status}`);
    await response.text();
  }, options);
  const passedOn = await measure(async () => {
    const response = await serveMarkdownTwin(
      new Request("https://studio.example/services", { headers: { accept: "text/html" } }),
      fetchStatic,
    );
    if (response !== undefined) throw new Error("an HTML request was answered with Markdown");
  }, options);

  console.log(describeFigures("bare read of the prebuilt twin", bare));
  console.log(describeFigures("GET /services, Accept: text/markdown", negotiated));
  console.log(describeFigures("GET /services, Accept: text/html (passed on)", passedOn));
  console.log(`\nthroughput ratio negotiated / bare read: ${(negotiated.perSecond / bare.perSecond).toFixed(2)}`);
  console.log(`median added latency: ${(negotiated.p50 - bare.p50).toFixed(3)} ms`);
}
