import { readdir, readFile } from "node:fs/promises";

/** netlify dev's main process for the runtime at `port`: the one whose preload names it (scripts/runtime/netlify.ts). */
export async function netlifyDevAt(port: string): Promise<number | undefined> {
  for (const pid of (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry))) {
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes(`behind-front.ts?port=${port}&`)) return Number(pid);
  }
  return undefined;
}
