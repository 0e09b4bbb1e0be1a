import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The layers of src/, as madge checks cycles: the HTTP core (src/http/) imports nothing from a door or from the brief
 * and booking pipelines; the operations (src/operations/, every write as the doors adapt it) import no door, and the
 * pipelines no operation; no door imports from another door. What they share lives in neither: tokens, paths, limits,
 * settings, the store.
 */
const src = fileURLToPath(new URL("../../src", import.meta.url));
const doors = ["api", "oauth", "mcp", "a2a", "contact"];
const pipelines = ["briefs", "booking"];
const layerOf = (file: string) => relative(src, file).split("/")[0]!;

function* modules(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    else if (/\.(ts|astro)$/.test(entry.name)) yield path;
  }
}

/** Every relative module a file imports, statically or dynamically, as a path. */
const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => resolve(dirname(file), m[1]!));

const edges = [...modules(src)].flatMap((file) => importsOf(file).map((target) => ({ file, from: layerOf(file), to: layerOf(target) })));
const named = ({ file, to }: { file: string; to: string }) => `${relative(src, file)} → ${to}`;

describe("the layers of src/", () => {
  it("finds the imports it checks", () => {
    expect(edges.filter((e) => e.from === "http").length).toBeGreaterThan(20);
    expect(edges.some((e) => e.from === "mcp" && e.to === "briefs")).toBe(true);
  });

  it("keeps the HTTP core free of every door and of the pipelines", () => {
    expect(edges.filter((e) => e.from === "http" && (doors.includes(e.to) || pipelines.includes(e.to))).map(named)).toEqual([]);
  });

  it("keeps the operations free of every door, and the pipelines free of the operations", () => {
    expect(edges.some((e) => e.from === "mcp" && e.to === "operations")).toBe(true);
    expect(edges.filter((e) => e.from === "operations" && doors.includes(e.to)).map(named)).toEqual([]);
    expect(edges.filter((e) => pipelines.includes(e.from) && e.to === "operations").map(named)).toEqual([]);
  });

  it("lets no door import from another door", () => {
    expect(edges.filter((e) => doors.includes(e.from) && doors.includes(e.to) && e.from !== e.to).map(named)).toEqual([]);
  });
});
