import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { startIsolatedRuntime, type IsolatedRuntimeOptions } from "../../scripts/runtime/isolated.ts";
import type { Runtime } from "../../scripts/runtime/runtime.ts";
import { suiteBuildVariables } from "./beside-the-suite.ts";

/** What a checkout holds that is not its sources: npm start's own files, the build's, a developer's secrets. */
const notCopied = new Set([".git", "node_modules", "dist", "build", ".astro", ".netlify", ".data", ".env", ".env.runtime"]);

/**
 * `npm start` in a copy of the checkout, for the files that stop or kill its netlify dev while the suite's runtime
 * serves the others. Two runtimes in one checkout would share what npm start writes there: .env.runtime (which netlify
 * dev and `npm run leads` read), build/doors/ (whose watcher makes netlify dev reload its functions) and .netlify/. The
 * copy has the sources, node_modules linked and dist/ copied with its build stamp (which hashes the sources' bytes), and takes the
 * variables the suite's build read: the suite's build serves it, unbuilt (without a suite's build, it builds its own).
 */
export async function startRuntimeOfItsOwn(
  root: string,
  env: NodeJS.ProcessEnv,
  options: IsolatedRuntimeOptions,
): Promise<Runtime & { dataDir: string; root: string }> {
  const copy = await mkdtemp(join(tmpdir(), "frontdoor-checkout-"));
  try {
    const top = (path: string) => relative(root, path).split(sep)[0]!;
    await cp(root, copy, { recursive: true, filter: (path) => !notCopied.has(top(path)) });
    await symlink(join(root, "node_modules"), join(copy, "node_modules"));
    const built = await cp(join(root, "dist"), join(copy, "dist"), { recursive: true }).then(
      () => true,
      () => false,
    );
    await mkdir(join(copy, ".data"));
    if (built) await cp(join(root, ".data", "build-fingerprint"), join(copy, ".data", "build-fingerprint")).catch(() => {});
    const runtime = await startIsolatedRuntime(copy, { ...(await suiteBuildVariables(root)), ...env }, options);
    return {
      ...runtime,
      root: copy,
      async stop() {
        await runtime.stop();
        await rm(copy, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
}
