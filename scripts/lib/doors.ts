import { context, type BuildOptions, type Metafile, type Plugin } from "esbuild";
import { builtinModules } from "node:module";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Each function's door, bundled with the npm packages it uses into one ESM file, build/doors/<function>.mjs. The thin
 * module in functions/ imports it on its first request through `new URL("../build/doors/<function>.mjs",
 * import.meta.url)`, which Netlify's function bundler leaves as it is and its file tracer (nft) ships beside the module.
 *
 * Why: that bundler (zip-it-and-ship-it: esbuild with `packages: "external"`) inlines our own modules, but hoists every
 * static import of an npm package to the top of the function's file, so zod, the SDKs, jose and Postmark all ran at
 * module init whatever the function imported lazily. Here the packages are bundled like our own code: they load with
 * the door, and what the door imports dynamically (jose, Postmark, the brief pipeline) only when a request needs it.
 * See docs/decisions.md, "Each function's door is a bundle of its own".
 */
export const doors = {
  a2a: "src/a2a/from-env.ts",
  bookings: "src/api/bookings-from-env.ts",
  briefs: "src/api/briefs-from-env.ts",
  contact: "src/contact/from-env.ts",
  "deliver-leads": "src/briefs/delivery-job.ts",
  jwks: "src/oauth/jwks-from-env.ts",
  mcp: "src/mcp/from-env.ts",
  oauth: "src/oauth/from-env.ts",
} as const;

export const doorsDir = (root: string) => join(root, "build", "doors");

// Packages written as CommonJS call require() for Node's built-ins; an ESM file has no require of its own.
const requireShim = 'import { createRequire as __doorRequire } from "node:module";\nconst require = __doorRequire(import.meta.url);';

/**
 * Node's built-ins are required when the module that uses them initialises: a static import of one would be hoisted to
 * the top of the door, and node:http with node:https alone take about 20 ms to load.
 */
const builtinsOnUse: Plugin = {
  name: "builtins-on-use",
  setup(build) {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    build.onResolve({ filter: /^[a-z:/_]+$/ }, (args) =>
      args.kind === "import-statement" && builtins.has(args.path) ? { path: args.path, namespace: "builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
    }));
  },
};

export interface DoorBuild {
  /** What the first build put in each door (esbuild's metafile). */
  metafile: Metafile;
  /** Stops watching (nothing to stop after a one-off build). */
  dispose(): Promise<void>;
}

/**
 * Builds every door once, or builds them and rebuilds them whenever a source changes (`watch`: under netlify dev, which
 * rebuilds a function when a file it traced changes). A door is rewritten only when it changed, and atomically.
 */
export async function buildDoors(root: string, { watch = false, log = console.error } = {}): Promise<DoorBuild> {
  const outdir = doorsDir(root);
  let built = false;
  const writeChanged: Plugin = {
    name: "write-changed",
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) {
          // The first build throws them; a rebuild while watching can only report them.
          if (built) log(`The doors were not rebuilt: ${result.errors.map((e) => e.text).join("; ")}`);
          return;
        }
        await mkdir(outdir, { recursive: true });
        await Promise.all((result.outputFiles ?? []).map((file) => writeIfChanged(file.path, file.text)));
      });
    },
  };
  const options: BuildOptions = {
    absWorkingDir: root,
    entryPoints: Object.entries(doors).map(([name, source]) => ({ in: source, out: name })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    banner: { js: requireShim },
    legalComments: "none",
    logLevel: "silent",
    metafile: true,
    write: false,
    plugins: [builtinsOnUse, writeChanged],
  };
  const ctx = await context(options);
  let metafile: Metafile;
  try {
    metafile = (await ctx.rebuild()).metafile!;
  } catch (error) {
    await ctx.dispose();
    throw error;
  }
  built = true;
  if (!watch) {
    await ctx.dispose();
    return { metafile, dispose: async () => {} };
  }
  await ctx.watch();
  return { metafile, dispose: () => ctx.dispose() };
}

async function writeIfChanged(path: string, text: string): Promise<void> {
  if ((await readFile(path, "utf8").catch(() => undefined)) === text) return;
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

/** The npm packages in a door, with the bytes each adds to it, largest first. */
export function packagesIn(metafile: Metafile, door: keyof typeof doors): [string, number][] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(`/${door}.mjs`))?.[1];
  const packages = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    if (name) packages.set(name, (packages.get(name) ?? 0) + bytesInOutput);
  }
  return [...packages].sort((a, b) => b[1] - a[1]);
}
