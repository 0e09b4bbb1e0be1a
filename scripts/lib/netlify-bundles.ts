import { resolveConfig } from "@netlify/config";
import { bundle } from "@netlify/edge-bundler";
import { zipFunctions } from "@netlify/zip-it-and-ship-it";
import { readdir, stat } from "node:fs/promises";
import { basename, delimiter, join } from "node:path";

/**
 * What a Netlify deploy uploads, made here by Netlify's own bundlers (the versions netlify-cli pins): the functions
 * through zip-it-and-ship-it, the edge functions through the edge bundler (Deno, from the npm `deno` package).
 */

export interface FunctionBundle {
  name: string;
  /** The zip Netlify uploads, or the unpacked folder with `archive: "none"`. */
  path: string;
  /** Bytes of the zip, or of every file in the folder. */
  bytes: number;
  /** npm packages traced into the bundle, with how many of their files. */
  packages: Map<string, number>;
  /** With `archive: "none"`, the function's own module (what the platform imports first). */
  module?: string;
}

export async function bundleFunctions(
  root: string,
  functionsDir: string,
  outDir: string,
  archive: "zip" | "none",
): Promise<FunctionBundle[]> {
  const results = await zipFunctions(functionsDir, outDir, {
    basePath: root,
    repositoryRoot: root,
    archiveFormat: archive,
    config: await functionsConfig(root),
  });
  return Promise.all(
    results.map(async (result) => ({
      name: result.name,
      path: result.path,
      bytes: archive === "zip" ? (result.size ?? 0) : await folderBytes(result.path),
      packages: packagesOf(result.inputs ?? []),
      module: archive === "none" ? await moduleOf(result.path, result.name) : undefined,
    })),
  );
}

/**
 * Each function's settings in netlify.toml, read by Netlify's own config reader, as a deploy hands them to the bundler:
 * the files it ships beside a function (`included_files`: its door, among them).
 */
async function functionsConfig(root: string) {
  const { config } = await resolveConfig({ repositoryRoot: root, cwd: root, offline: true });
  const functions = (config.functions ?? {}) as Record<string, { included_files?: string[] }>;
  return Object.fromEntries(
    Object.entries(functions).map(([name, settings]) => [
      name,
      { includedFiles: settings.included_files ?? [], includedFilesBasePath: root },
    ]),
  );
}

export interface EdgeBundle {
  functions: string[];
  /** Bytes of the one eszip that holds every edge function. */
  bytes: number;
}

export async function bundleEdgeFunctions(root: string, outDir: string): Promise<EdgeBundle> {
  const path = process.env.PATH;
  // The edge bundler runs the Deno it finds on PATH; the project's own comes from node_modules/.bin.
  process.env.PATH = `${join(root, "node_modules", ".bin")}${delimiter}${path ?? ""}`;
  try {
    const { functions } = await bundle([join(root, "functions/edge")], outDir, [], {
      basePath: root,
      importMapPaths: [join(root, "functions/edge/types/import-map.json")],
      // Offline, it cannot ask edge.netlify.com for the newest type definitions; that is not an error here.
      systemLogger: () => {},
    });
    const eszips = (await readdir(outDir)).filter((file) => file.endsWith(".eszip"));
    const bytes = (await Promise.all(eszips.map(async (file) => (await stat(join(outDir, file))).size))).reduce((a, b) => a + b, 0);
    return { functions: functions.map((f) => f.name), bytes };
  } finally {
    process.env.PATH = path;
  }
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function moduleOf(folder: string, name: string): Promise<string | undefined> {
  const files = await readdir(folder, { recursive: true });
  const module = files.find((file) => !file.includes("node_modules") && basename(file) === `${name}.mjs`);
  return module && join(folder, module);
}

function packagesOf(inputs: string[]): Map<string, number> {
  const packages = new Map<string, number>();
  for (const input of inputs) {
    const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    if (name) packages.set(name, (packages.get(name) ?? 0) + 1);
  }
  return packages;
}
