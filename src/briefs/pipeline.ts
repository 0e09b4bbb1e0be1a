import type { Limiter, QuotaResult } from "../limits/limiter.ts";
import { sha256Hex } from "../store/ids.ts";
import { turnAfter } from "../store/turns.ts";
import { attemptOwed, type DeliveryDeps } from "./deliver.ts";
import { newLeadId, type Channel, type Lead } from "./lead.ts";
import { briefQuotaExceeded, keyReused } from "./refusals.ts";
import type { Brief, BriefSchema } from "./schema.ts";
import type { LeadStore } from "./store.ts";

export interface PipelineDeps extends DeliveryDeps {
  schema: BriefSchema;
  store: LeadStore;
  limiter: Limiter;
  /**
   * LEADS_EMAIL_DAILY_LIMIT: leads e-mailed one by one per UTC day (of `now`), each source at most its share of them
   * (src/briefs/held.ts); later ones are held (0 holds all).
   */
  dailyEmailLimit: number;
}

export interface FilingRequest {
  channel: Channel;
  /** The OAuth client filing it, or `form:<ip>` for the contact form: recorded, for the studio. */
  clientId: string;
  /**
   * Whose brief it is: the grant of the caller's token, or `form:<ip>` for the contact form. Idempotency-Keys, repeats
   * and the brief quota are the owner's, never the client's, which other people can also get tokens for.
   */
  owner: string;
  /**
   * The address the owner counts against: where the person approved the grant (a keyed digest, src/oauth/consent-address.ts),
   * else the address the brief came from (a client's own grant, the contact form). Every owner's briefs of one address
   * together have a ceiling, and a share of the day's e-mail. Recorded with the lead.
   */
  address: string;
  /** As the client sent it (REST: the Idempotency-Key header; MCP: idempotency_key), validated. */
  idempotencyKey?: string;
  /**
   * The request's waitUntil: the first e-mail attempt runs there, after the answer, so a slow Postmark never delays
   * it. Every door passes its own; without one (scripts, tests) the attempt is awaited before the result.
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

/**
 * What became of a brief; every refusal is thrown, named as its condition (src/briefs/refusals.ts). `already_filed`
 * only ever names a lead the same owner filed: a replayed Idempotency-Key, or the very same brief sent again within the
 * repeat window.
 */
export type FilingResult =
  { kind: "filed"; lead: Lead; counted?: QuotaResult[] } | { kind: "already_filed"; lead: Lead; reason: "idempotency_key" | "repeat" };

/** The same brief, whatever the order of its fields. */
const fingerprint = (brief: Brief) =>
  sha256Hex(
    JSON.stringify(
      Object.keys(brief)
        .sort()
        .map((k) => [k, brief[k as keyof Brief]]),
    ),
  );

/** The person a brief is about, whoever files it: only ever used to annotate the studio's e-mail. */
const personOf = (brief: Brief) => sha256Hex(`${brief.work_email.toLowerCase()}\n${brief.company_name.toLowerCase()}`);

/**
 * Filing a validated brief, once, for every channel (REST, MCP, A2A, the contact form): honour an Idempotency-Key,
 * collapse an owner's exact repeat, count the owner's quota (and its address's ceiling for every owner together), record
 * the lead durably, and only then try the e-mail (in the background; the retry job owns failures).
 *
 * Everything that can answer with an earlier lead is keyed by the owner, so no answer ever carries another person's
 * brief and no brief is ever dropped because of another's, even when both came through the same client.
 */
export async function fileBrief(brief: Brief, request: FilingRequest, deps: PipelineDeps): Promise<FilingResult> {
  const { idempotencyKey } = request;
  const { store } = deps;
  const leadId = newLeadId();
  const print = await fingerprint(brief);
  const keyHash = idempotencyKey === undefined ? undefined : await sha256Hex(idempotencyKey);

  if (keyHash) {
    const claim = await store.claimIdempotencyKey(request.owner, keyHash, { fingerprint: print, lead_id: leadId });
    if (claim) {
      if (claim.fingerprint !== print) throw keyReused();
      const original = await waitForLead(store, claim.lead_id);
      if (original) return { kind: "already_filed", lead: original, reason: "idempotency_key" };
      // The first request claimed the key but never recorded its lead: this one files it, under the same id.
      return record({ ...request, leadId: claim.lead_id, brief, keyHash, print }, deps);
    }
  }
  return record({ ...request, leadId, brief, keyHash, print }, deps);
}

type Recording = FilingRequest & { leadId: string; brief: Brief; keyHash?: string; print: string };

/** How long the same brief waits for the request filing it; a request that takes longer is a store in trouble. */
const sameBriefWaitMs = 10_000;

/**
 * Records the lead, once per owner and brief: an exact repeat by the same owner costs no quota and is answered with the
 * first lead, even while that one is being filed, since one request files an owner's brief at a time and the others wait
 * for its lead (src/store/turns.ts).
 */
async function record(r: Recording, deps: PipelineDeps): Promise<FilingResult> {
  const { store } = deps;
  const turn = await turnAfter(
    () => store.takeSameBrief(r.owner, r.print, sameBriefWaitMs),
    // The lead the brief's repeat slot names, once recorded: another request's, or this very one's, which a first request
    // under the same key recorded after this retry stopped waiting for it.
    async () => {
      const holder = await store.repeatLead(r.owner, r.print);
      const original = holder ? await store.get(holder) : null;
      return original?.owner === r.owner ? original : null;
    },
    { waitMs: sameBriefWaitMs, gaveUp: () => new Error("the same brief is still being filed by another request") },
  );
  if ("made" in turn && turn.made.id === r.leadId) return { kind: "already_filed", lead: turn.made, reason: "idempotency_key" };
  if ("made" in turn) return repeatOf(turn.made, r, store);
  try {
    return await recordOnce(r, deps);
  } finally {
    await turn.turn.done();
  }
}

/** The owner's earlier lead of the same brief, as the answer; a key this request claimed names it from now on. */
async function repeatOf(original: Lead, r: Recording, store: LeadStore): Promise<FilingResult> {
  if (r.keyHash) await store.pointIdempotencyKey(r.owner, r.keyHash, { fingerprint: r.print, lead_id: original.id });
  return { kind: "already_filed", lead: original, reason: "repeat" };
}

async function recordOnce(r: Recording, deps: PipelineDeps): Promise<FilingResult> {
  const { store } = deps;
  const counted = await deps.limiter.consumeGrant("briefs-per-grant", r.owner, "briefs-per-address", r.address);
  const refused = counted.find((quota) => !quota.allowed);
  if (refused) {
    // Nothing is filed under the key: it is the owner's again, for this brief or another.
    if (r.keyHash) await store.releaseIdempotencyKey(r.owner, r.keyHash, r.leadId);
    throw briefQuotaExceeded(refused);
  }
  // This request holds the brief's turn, so a repeat slot held by another lead names one already recorded, or one whose
  // request died before it recorded it: that slot is this lead's to take over.
  const holder = await store.claimRepeat(r.owner, r.print, r.leadId);
  const original = holder && holder !== r.leadId ? await store.get(holder) : null;
  if (original?.owner === r.owner) return repeatOf(original, r, store);
  if (holder && holder !== r.leadId && !original) await store.replaceRepeat(r.owner, r.print, r.leadId);

  const person = await personOf(r.brief);
  const samePerson = await store.lastLeadAbout(person);
  const lead: Lead & { address: string } = {
    id: r.leadId,
    received_at: new Date((deps.now ?? Date.now)()).toISOString(),
    channel: r.channel,
    client_id: r.clientId,
    owner: r.owner,
    address: r.address,
    brief: r.brief,
    ...(samePerson ? { possibly_same_person_as: samePerson } : {}),
    delivery: { state: "pending", attempts: 0 },
  };
  // Held past the day's e-mail limit or its source's share, or not, the answer is the same: the lead is recorded either way.
  const { delivery, owed } = await store.insert(lead, deps.dailyEmailLimit);
  // Only a recorded lead is ever named to the studio as possibly the same person. A hint, so a failure to note it
  // never turns a recorded lead into a refusal.
  await store.noteLeadAbout(person, lead.id).catch((error: unknown) => console.error(`same-person note of ${lead.id}: ${String(error)}`));
  const first = Promise.all(owed.map((id) => attemptOwed(id, deps))).catch((error: unknown) =>
    console.error(`first delivery attempt of ${lead.id}: ${String(error)}`),
  );
  if (r.waitUntil) r.waitUntil(first);
  else await first;
  return { kind: "filed", lead: { ...lead, delivery }, counted };
}

/**
 * The lead an owner's Idempotency-Key filed, as a replay of it, if it filed one: what any later answer to the same
 * request must report (an MCP confirmation answered again, say), never that nothing was filed. With `brief`, only a lead
 * the key filed for that very brief.
 */
export async function filedUnder(owner: string, idempotencyKey: string, store: LeadStore, brief?: Brief): Promise<FilingResult | null> {
  const record = await store.idempotencyRecord(owner, await sha256Hex(idempotencyKey));
  if (!record || (brief && record.fingerprint !== (await fingerprint(brief)))) return null;
  const lead = await store.get(record.lead_id);
  return lead?.owner === owner ? { kind: "already_filed", lead, reason: "idempotency_key" } : null;
}

/** Refuses a key the owner used for another brief, as filing this one would: what a dry run must say too. */
export async function checkKey(owner: string, idempotencyKey: string, brief: Brief, store: LeadStore): Promise<void> {
  const record = await store.idempotencyRecord(owner, await sha256Hex(idempotencyKey));
  if (record && record.fingerprint !== (await fingerprint(brief))) throw keyReused();
}

/** A lead claimed by a concurrent request appears within moments; waits briefly for it. */
async function waitForLead(store: LeadStore, id: string): Promise<Lead | null> {
  for (let i = 0; i < 20; i++) {
    const lead = await store.get(id);
    if (lead) return lead;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}
