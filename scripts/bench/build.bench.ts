import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildContentInto } from "../lib/astro-build.ts";

const sizes = (process.env.BENCH_BUILD_SIZES ?? "10,100,1000").split(",").map(Number);

/**
 * Build time against content size: the real content with its case studies multiplied to 10, 100 and 1,000 (copies
 * of the samples under new ids, titles and client names), each built cold (fresh output and cache folders) by the
 * same `astro build` as npm run build. What should stay flat is the cost of each added case study.
 */
export default async function buildBench() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const samples = await readSamples(join(root, "content/case-studies"));
  const rows: { studies: number; seconds: number; files: number }[] = [];
  for (const studies of sizes) {
    const work = await mkdtemp(join(tmpdir(), "frontdoor-build-bench-"));
    try {
      await cp(join(root, "content"), join(work, "content"), { recursive: true });
      await rm(join(work, "content/case-studies"), { recursive: true });
      await cp(join(root, "content/case-studies"), join(work, "content/case-studies"), { recursive: true });
      for (let i = samples.length; i < studies; i++) {
        const sample = samples[i % samples.length]!;
        await writeFile(join(work, "content/case-studies", `${sample.id}-${i}.md`), renamed(sample.text, i));
      }
      const started = performance.now();
      const build = await buildContentInto(root, {
        contentDir: join(work, "content"),
        outDir: join(work, "dist"),
        cacheDir: join(work, "cache"),
      });
      if (build.code !== 0) throw new Error(`astro build failed (exit code ${build.code}):\n${build.output}`);
      const seconds = (performance.now() - started) / 1000;
      const files = (await readdir(join(work, "dist"), { recursive: true })).filter((f) => /\.(html|md|json)$/.test(f)).length;
      rows.push({ studies, seconds, files });
      console.log(`${String(studies).padStart(5)} case studies: ${seconds.toFixed(1)} s, ${files} HTML/Markdown/JSON files`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const perStudy = ((b.seconds - a.seconds) * 1000) / (b.studies - a.studies);
    console.log(`each case study added between ${a.studies} and ${b.studies}: ${perStudy.toFixed(1)} ms`);
  }
}

async function readSamples(folder: string) {
  const files = (await readdir(folder)).filter((f) => f.endsWith(".md")).sort();
  return Promise.all(files.map(async (file) => ({ id: file.slice(0, -3), text: await readFile(join(folder, file), "utf8") })));
}

/** A copy of a sample study that reads as a different one: its title and client get the copy's number. */
const renamed = (text: string, n: number) =>
  text.replace(/^title: (.*)$/m, `title: $1 (${n})`).replace(/^ {2}name: (.*)$/m, `  name: $1 ${n}`);
