import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run leads -- <args>`, run as an operator runs it next to the local runtime whose data folder is `dataDir`. */
export const leadsCli = (dataDir: string, ...args: string[]) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ["scripts/leads.ts", ...args], {
      cwd: root,
      env: { ...process.env, FRONTDOOR_DATA_DIR: dataDir },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
