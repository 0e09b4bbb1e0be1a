import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { restMethods, restOperation, restOperations } from "../../src/a2a/rest-routes.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import {
  a2aPath,
  a2aRestPath,
  aiCatalogPath,
  apiCatalogPath,
  briefsPath,
  mcpPath,
  oauthBase,
  oauthPaths,
  pagePaths,
  protectedResourceMetadataPath,
  registryAuthPath,
  routeMethods,
  serverCardWellKnownPath,
} from "../../src/paths.ts";
import { importsOf, modules, src } from "../support/src-imports.ts";

const source = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), "utf8");

/**
 * Each import cycle among the modules of src/, as the files around it. The imports are the ones layering.test.ts reads
 * (every static, dynamic and type import and every re-export; madge, which parses each file with TypeScript, finds the
 * same graph in about ten times the CPU).
 */
function importCycles(): string[][] {
  const files = new Set(modules());
  const graph = new Map([...files].map((file) => [file, importsOf(file).filter((target) => files.has(target))]));
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at >= 0) return void cycles.push(path.slice(at).map((f) => relative(src, f)));
    if (done.has(file)) return;
    path.push(file);
    for (const target of graph.get(file)!) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

describe("the modules of src/", () => {
  it("import one another without a cycle", () => {
    expect([...modules()].length).toBeGreaterThan(100);
    expect(importCycles()).toEqual([]);
  });

  it("take every URL path from src/paths.ts, a leaf that imports nothing", async () => {
    expect(await source("src/paths.ts")).not.toMatch(/^\s*import\b/m);
  });
});

/** Netlify reads `config` and netlify.toml without running them, so they repeat paths as literals: they must agree. */
describe("the literals Netlify reads statically", () => {
  const configPaths = async (file: string) => {
    const match = /export const config[^=]*=\s*\{[^}]*?path:\s*(\[[^\]]*\]|"[^"]*")/s.exec(await source(file));
    return [JSON.parse(match![1]!)].flat() as string[];
  };

  it.each([
    ["functions/oauth.ts", [`${oauthBase}/*`]],
    ["functions/jwks.ts", [oauthPaths.jwks]],
    ["functions/mcp.ts", [mcpPath, `${mcpPath}/*`]],
    ["functions/a2a.ts", [a2aPath, `${a2aPath}/*`]],
    ["functions/briefs.ts", [briefsPath]],
    ["functions/contact.ts", [pagePaths.contact]],
    ["functions/edge/media-types.ts", ["/.well-known/*"]],
  ])("%s serves the paths of src/paths.ts", async (file, paths) => {
    expect(await configPaths(file)).toEqual(paths);
  });

  it("has the edge function that types discovery documents cover each of them", () => {
    for (const path of [apiCatalogPath, aiCatalogPath, serverCardWellKnownPath, registryAuthPath])
      expect(path).toMatch(/^\/\.well-known\//);
  });

  it("netlify.toml rewrites every protected resource metadata path to its prebuilt file", async () => {
    const toml = await source("netlify.toml");
    for (const resource of ["origin", "mcp", "a2a"] as const) {
      const path = protectedResourceMetadataPath(resource);
      expect(toml).toContain(`from = "${path}"\n  to = "${path}.json"`);
    }
    expect(toml).toContain(`from = "${oauthPaths.authorizationServerMetadata}"`);
  });
});

describe("the route tables", () => {
  it("list HEAD wherever they list GET (RFC 9110 §9.3.2): each door's routes, /api's, A2A's HTTP+JSON operations", () => {
    const tables: [string, readonly string[]][] = [
      ...Object.entries(routeMethods),
      ...apiRoutes.map((route) => [route.path, route.methods] as [string, readonly string[]]),
      ...[a2aRestPath, ...restOperations().map((operation) => operation.path.replaceAll("{id}", "t1"))].map(
        (path) => [path, restMethods(path)] as [string, readonly string[]],
      ),
    ];
    expect(tables.filter(([, methods]) => methods.includes("GET")).length).toBeGreaterThan(10);
    for (const [path, methods] of tables) expect(methods.includes("HEAD"), path).toBe(methods.includes("GET"));
    for (const operation of restOperations().filter((o) => o.method === "GET"))
      expect(restOperation("HEAD", operation.path.replaceAll("{id}", "t1")), operation.path).toBe(
        restOperation("GET", operation.path.replaceAll("{id}", "t1")),
      );
  });
});
