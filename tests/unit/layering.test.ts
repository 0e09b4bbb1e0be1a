import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, modules, src } from "../support/src-imports.ts";

/**
 * The layers of src/, as paths.test.ts checks cycles: the HTTP core (src/http/) imports nothing from a door or from the brief
 * and booking pipelines; the operations (src/operations/, every write as the doors adapt it) import no door, and the
 * pipelines no operation; no door imports from another door. What they share lives in neither: tokens, paths, limits,
 * settings, the store.
 */
const doors = ["api", "oauth", "mcp", "a2a", "contact"];
const pipelines = ["briefs", "booking"];
const layerOf = (file: string) => relative(src, file).split("/")[0]!;

const edges = [...modules()].flatMap((file) => importsOf(file).map((target) => ({ file, from: layerOf(file), to: layerOf(target) })));
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
