import "./node-check.ts";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { pipelineFromEnv } from "../src/briefs/config.ts";
import { attemptDelivery, deliverDue, type DeliveryDeps } from "../src/briefs/deliver.ts";
import type { Lead } from "../src/briefs/lead.ts";
import type { LeadStore } from "../src/briefs/store.ts";
import type { PrebuiltResources } from "../src/resources/prebuilt.ts";
import { startLocalStore, type LocalStore } from "./local-store/store.ts";
import type { StandInBooking } from "./local-calcom/standin.ts";
import { settingsFrom } from "../src/config/settings.ts";
import { readDotEnv, resolveConfig, setLocalRuntimeVariables } from "./runtime/config.ts";

const usage = `npm run leads                   list leads, newest first, with their delivery state
npm run leads -- show <id>      one lead in full
npm run leads -- resend <id>    e-mail a lead again now (a failed one, after fixing the cause; or a pending one)
npm run leads -- held           the leads held by the day's e-mail limit (LEADS_EMAIL_DAILY_LIMIT) or their source's
                                share of it, oldest first, with the address and grant each came from
npm run leads -- release <id>   e-mail a held lead now (it does not count against the day's limit)
npm run leads -- release --all  e-mail every held lead now, oldest first
npm run leads -- deliver        run the delivery job now for everything that is due
npm run leads -- bookings       the intro calls booked with the local Cal.com stand-in (with Cal.com configured,
                                they are in Cal.com, as for any booking)

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
  // Next to a running runtime, its own configuration (the store, and the same mailer, so a resend or a release asks
  // the mailer the runtime used whether a message already went out).
  if (running) Object.assign(values, runtime);
  else {
    local = await startLocalStore({ token: "leads-cli", snapshotFile: join(resolve(root, config.dataDir), "store.json") });
    Object.assign(values, { UPSTASH_REDIS_REST_URL: local.url, UPSTASH_REDIS_REST_TOKEN: local.token });
  }
  // The local runtime's rules apply (the outbox when Postmark is not configured).
  values.FRONTDOOR_OUTBOX_DIR ??= join(resolve(root, config.dataDir), "outbox");
  setLocalRuntimeVariables(values);
  return { env: (name) => values[name], local };
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

/** Where a lead came from: its address, and its grant or the contact form (a lead recorded without its address: "?"). */
function sourceOf(l: Lead): { address: string; owner: string } {
  const form = l.owner.startsWith("form:");
  return { address: l.address ?? (form ? l.owner.slice("form:".length) : "?"), owner: form ? "form" : l.owner };
}

const heldRow = (l: Lead) => {
  const { address, owner } = sourceOf(l);
  return [
    l.id,
    l.received_at.slice(0, 16).replace("T", " "),
    l.channel.padEnd(4),
    address.padEnd(15),
    owner.padEnd(25),
    `${l.brief.company_name} <${l.brief.work_email}>`,
  ].join("  ");
};

/** One line per address, most held first: how many, and from which grants (or the contact form). */
function bySource(leads: Lead[]): string[] {
  const addresses = new Map<string, Map<string, number>>();
  for (const lead of leads) {
    const { address, owner } = sourceOf(lead);
    const owners = addresses.get(address) ?? new Map<string, number>();
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
    addresses.set(address, owners);
  }
  const total = (owners: Map<string, number>) => [...owners.values()].reduce((a, b) => a + b, 0);
  return [...addresses]
    .sort(([, a], [, b]) => total(b) - total(a))
    .map(([address, owners]) => {
      const named = [...owners].sort(([, a], [, b]) => b - a);
      const shown = named.slice(0, 3).map(([owner, n]) => `${owner}: ${n}`);
      if (named.length > 3) shown.push(`${named.length - 3} more`);
      return `From ${address}: ${total(owners)} (${shown.join(", ")})`;
    });
}

/** Every held lead, oldest first. */
async function heldLeads(store: LeadStore): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (const id of await store.heldIds()) {
    const lead = await store.get(id);
    if (lead) leads.push(lead);
  }
  return leads;
}

async function attemptAndReport(id: string, deps: DeliveryDeps): Promise<string> {
  const outcome = await attemptDelivery(id, deps);
  const after = await deps.store.get(id);
  return `${id}: ${outcome} (${after?.delivery.state}${after?.delivery.last_error ? `: ${after.delivery.last_error}` : ""})`;
}

/** The local Cal.com stand-in's bookings, as Cal.com would show them to the studio: soonest first. */
async function localBookings() {
  const config = resolveConfig(process.env, await readDotEnv(join(root, ".env")));
  if (config.env.CAL_EVENT_TYPE_ID) return console.log("Cal.com is configured: the bookings are in Cal.com.");
  const file = join(resolve(root, config.dataDir), "bookings.json");
  const kept = JSON.parse(await readFile(file, "utf8").catch(() => '{"bookings":[]}')) as { bookings: StandInBooking[] };
  if (kept.bookings.length === 0) return console.log("No intro call booked yet.");
  console.log(["start (UTC)     ", "status   ", "attendee".padEnd(40), "lead"].join("  "));
  for (const b of [...kept.bookings].sort((x, y) => x.start.localeCompare(y.start)))
    console.log(
      [
        b.start.slice(0, 16).replace("T", " "),
        b.status.padEnd(9),
        `${b.attendee.name} <${b.attendee.email}>`.slice(0, 40).padEnd(40),
        String(b.metadata.lead_id ?? ""),
      ].join("  "),
    );
}

async function main() {
  if (command === "help" || command === "--help") return console.log(usage);
  if (command === "bookings") return localBookings();
  const prebuilt = JSON.parse(
    await readFile(join(root, "dist", "api", "v1", "prebuilt.json"), "utf8").catch(() => {
      throw new Error("dist/ is missing: run npm run build (or npm start) first");
    }),
  ) as PrebuiltResources;
  const { env, local } = await environment();
  const deps = pipelineFromEnv(settingsFrom(env), prebuilt);
  try {
    switch (command) {
      case "list": {
        const leads = await deps.store.list(100);
        if (leads.length === 0) return console.log("No leads yet.");
        console.log(["id".padEnd(25), "received (UTC)  ", "via ", "state    ", "tries", "from", "last error"].join("  "));
        for (const lead of leads) console.log(row(lead));
        const held = (await deps.store.heldIds()).length;
        if (held > 0)
          console.log(
            `\n${held} held by the day's e-mail limit or their source's share: npm run leads -- held, then release <id> or release --all`,
          );
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
        if (lead.delivery.state === "held") throw new Error(`${lead.id} is held: npm run leads -- release ${lead.id}`);
        await deps.store.saveDelivery({
          ...lead,
          delivery: { ...lead.delivery, state: "pending", next_attempt_at: new Date().toISOString() },
        });
        return console.log(await attemptAndReport(lead.id, deps));
      }
      case "held": {
        const held = await heldLeads(deps.store);
        if (held.length === 0) return console.log("No lead is held.");
        console.log(["id".padEnd(25), "received (UTC)  ", "via ", "address        ", "grant (or form)".padEnd(25), "from"].join("  "));
        for (const lead of held) console.log(heldRow(lead));
        console.log(`\n${held.length} held: npm run leads -- release <id>, or release --all`);
        for (const line of bySource(held)) console.log(line);
        return;
      }
      case "release": {
        const all = id === "--all";
        const leads = all ? await heldLeads(deps.store) : [id ? await deps.store.get(id) : null];
        if (!all && leads[0]?.delivery.state !== "held")
          throw new Error(
            leads[0] ? `${leads[0].id} is not held (${leads[0].delivery.state})` : `no lead ${id ?? "(give an id or --all)"}`,
          );
        if (leads.length === 0) return console.log("No lead is held.");
        for (const lead of leads as Lead[]) {
          if (!(await deps.store.release(lead, Date.now()))) {
            console.log(`${lead.id}: not held any more (released by someone else?)`);
            continue;
          }
          console.log(await attemptAndReport(lead.id, deps));
        }
        return;
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
