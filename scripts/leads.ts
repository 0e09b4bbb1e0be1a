import "./node-check.ts";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { pipelineFromEnv } from "../src/briefs/config.ts";
import { attemptDelivery, deliverDue } from "../src/briefs/deliver.ts";
import type { Lead } from "../src/briefs/lead.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";
import { startLocalStore, type LocalStore } from "./local-store/store.ts";
import { readDotEnv, resolveConfig } from "./runtime/config.ts";

const usage = `npm run leads                 list leads, newest first, with their delivery state
npm run leads -- show <id>    one lead in full
npm run leads -- resend <id>  e-mail a lead again now (a failed one, after fixing the cause; or a pending one)
npm run leads -- deliver      run the delivery job now for every lead that is due

With UPSTASH_REDIS_REST_URL/TOKEN (in .env or the shell) it works on production's leads; without, on the local
runtime's (the running local store, or its snapshot in .data/ when npm start is not running).`;

const root = fileURLToPath(new URL("..", import.meta.url));
const [command = "list", id] = process.argv.slice(2);

/** The store to use: Upstash when configured; else the running local store; else one started on its snapshot. */
async function environment(): Promise<{ env: (name: string) => string | undefined; local?: LocalStore }> {
  const config = resolveConfig(process.env, await readDotEnv(join(root, ".env")));
  const values: Record<string, string | undefined> = { ...config.env };
  if (values.UPSTASH_REDIS_REST_URL) return { env: (name) => values[name] };

  const runtime = parseEnv(await readFile(join(root, ".env.runtime"), "utf8").catch(() => "")) as Record<string, string>;
  const running = runtime.UPSTASH_REDIS_REST_URL
    ? await fetch(runtime.UPSTASH_REDIS_REST_URL, {
        method: "POST",
        headers: { authorization: `Bearer ${runtime.UPSTASH_REDIS_REST_TOKEN}` },
        body: '["PING"]',
      }).then(
        (r) => r.ok,
        () => false,
      )
    : false;
  let local: LocalStore | undefined;
  if (running)
    Object.assign(values, {
      UPSTASH_REDIS_REST_URL: runtime.UPSTASH_REDIS_REST_URL,
      UPSTASH_REDIS_REST_TOKEN: runtime.UPSTASH_REDIS_REST_TOKEN,
    });
  else {
    local = await startLocalStore({ token: "leads-cli", snapshotFile: join(resolve(root, config.dataDir), "store.json") });
    Object.assign(values, { UPSTASH_REDIS_REST_URL: local.url, UPSTASH_REDIS_REST_TOKEN: local.token });
  }
  values.FRONTDOOR_OUTBOX_DIR ??= join(resolve(root, config.dataDir), "outbox");
  // The local runtime's rules apply (the outbox when Postmark is not configured).
  return { env: (name) => (name === "NETLIFY_DEV" ? "true" : values[name]), local };
}

const row = (l: Lead) =>
  [
    l.id,
    l.received_at.slice(0, 16).replace("T", " "),
    l.channel.padEnd(4),
    l.delivery.state.padEnd(9),
    String(l.delivery.attempts).padStart(2),
    `${l.brief.company_name} <${l.brief.work_email}>`,
    l.delivery.last_error ?? "",
  ].join("  ");

async function main() {
  if (command === "help" || command === "--help") return console.log(usage);
  const prebuilt = JSON.parse(
    await readFile(join(root, "dist", "api", "v1", "prebuilt.json"), "utf8").catch(() => {
      throw new Error("dist/ is missing: run npm run build (or npm start) first");
    }),
  ) as PrebuiltResources;
  const { env, local } = await environment();
  const deps = pipelineFromEnv(env, prebuilt);
  try {
    switch (command) {
      case "list": {
        const leads = await deps.store.list(100);
        if (leads.length === 0) return console.log("No leads yet.");
        console.log(["id".padEnd(25), "received (UTC)  ", "via ", "state    ", "tries", "from", "last error"].join("  "));
        for (const lead of leads) console.log(row(lead));
        return;
      }
      case "show": {
        const lead = id ? await deps.store.get(id) : null;
        if (!lead) throw new Error(`no lead ${id ?? "(give an id)"}`);
        return console.log(JSON.stringify(lead, null, 2));
      }
      case "resend": {
        const lead = id ? await deps.store.get(id) : null;
        if (!lead) throw new Error(`no lead ${id ?? "(give an id)"}`);
        if (lead.delivery.state === "delivered")
          throw new Error(`${lead.id} was delivered at ${lead.delivery.delivered_at}; nothing to resend`);
        await deps.store.saveDelivery({
          ...lead,
          delivery: { ...lead.delivery, state: "pending", next_attempt_at: new Date().toISOString() },
        });
        const outcome = await attemptDelivery(lead.id, deps);
        const after = await deps.store.get(lead.id);
        return console.log(
          `${lead.id}: ${outcome} (${after?.delivery.state}${after?.delivery.last_error ? `: ${after.delivery.last_error}` : ""})`,
        );
      }
      case "deliver":
        return console.log(JSON.stringify(await deliverDue(deps)));
      default:
        console.error(usage);
        process.exitCode = 2;
    }
  } finally {
    await local?.close();
  }
}

main().catch((error: unknown) => {
  console.error(`leads: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
