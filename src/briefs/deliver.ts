import { addressField, heldAlertMessage, ownerField, type HeldAlert, type HeldCounts } from "./held.ts";
import { retryDelayMs, type Delivery, type Lead } from "./lead.ts";
import { leadMessage, type MailMessage } from "./mail.ts";
import type { Mailer } from "./mailer.ts";
import { callNoticeMessage, leadMailSettled, type CallNotice } from "./call-notice.ts";
import { isAlertKey, isCallNoticeKey, type LeadStore } from "./store.ts";

export interface DeliveryDeps {
  store: LeadStore;
  mailer: Mailer;
  from: string;
  to: string;
  studio: string;
  now?: () => number;
  /** Where an operator hears about leads that cannot be delivered. */
  alert?: (message: string) => void;
}

export type AttemptOutcome = "delivered" | "retry" | "failed" | "busy" | "done";

/** One stored thing the studio is owed an e-mail for (a lead, or a day's alert), and how to read, write and word it. */
interface Owed<T extends { delivery: Delivery }> {
  /** Its id in `leads:due`, which names its lock. */
  id: string;
  load(): Promise<T | null>;
  save(record: T): Promise<void>;
  message(record: T): Promise<MailMessage>;
  /** The log line when it can never be sent. */
  undeliverable(record: T, reason: string): string;
  /** Whether it may go now; one that must wait for another e-mail is tried again a minute later, no attempt counted. */
  ready?(record: T): Promise<boolean>;
}

/**
 * One delivery attempt of one lead's e-mail, at most one at a time per lead (a lock), and never a second e-mail:
 * the attempt is counted (`sending`) before Postmark is called, and every later attempt first asks Postmark for a
 * message carrying this lead's id, so an answer lost to a timeout or a crash never leads to a second send. A held
 * lead is never e-mailed: it must be released first.
 */
export function attemptDelivery(id: string, deps: DeliveryDeps): Promise<AttemptOutcome> {
  return attempt<Lead>(
    {
      id,
      load: () => deps.store.get(id),
      save: (lead) => deps.store.saveDelivery(lead),
      message: async (lead) => leadMessage(lead, deps),
      undeliverable: (lead, reason) =>
        `LEAD NOT DELIVERED: ${lead.id} from ${lead.brief.company_name} cannot be e-mailed (${reason}). Run \`npm run leads\` to see it, fix the cause, then resend it.`,
    },
    deps,
  );
}

/** The count of held leads the alert reports for its source: its owner's, or its address's. */
function alertSourceField({ reason, address, owner }: HeldAlert): string | undefined {
  if (reason === "owner" && owner) return ownerField(owner);
  if (reason === "address" && address) return addressField(address);
  return undefined;
}

/** What one of the day's alerts reports, read when it is sent: the held counts, and for the day's limit who used it. */
async function alertCounts(alert: HeldAlert, store: LeadStore): Promise<HeldCounts> {
  const source = alertSourceField(alert);
  if (source !== undefined) return store.heldCounts(alert.day, source);
  const [counts, busiest] = await Promise.all([store.heldCounts(alert.day), store.busiestAddresses(alert.day)]);
  return { ...counts, busiest };
}

/** One attempt of one of the day's alerts that leads are held, under the same rules as a lead's e-mail: at most once. */
export function attemptHeldAlert(key: string, deps: DeliveryDeps): Promise<AttemptOutcome> {
  return attempt<HeldAlert>(
    {
      id: key,
      load: () => deps.store.getAlert(key),
      save: (alert) => deps.store.saveAlert(key, alert),
      message: async (alert) => heldAlertMessage(alert, await alertCounts(alert, deps.store), deps),
      undeliverable: (alert, reason) =>
        `HELD-LEADS ALERT NOT DELIVERED: the e-mail saying that leads are held (${alert.reason ?? "day"}) since ${alert.day} cannot be sent (${reason}). Run \`npm run leads\` to see them.`,
    },
    deps,
  );
}

/** One attempt of the e-mail that a call was booked for a lead: at most once, and only after the lead's own. */
export function attemptCallNotice(key: string, deps: DeliveryDeps): Promise<AttemptOutcome> {
  // The lead is read once an attempt: `ready` reads it, `message` words the notice from it.
  let lead: Lead | null = null;
  return attempt<CallNotice>(
    {
      id: key,
      load: () => deps.store.getCallNotice(key),
      save: (notice) => deps.store.saveCallNotice(notice),
      ready: async (notice) => leadMailSettled((lead = await deps.store.get(notice.lead_id))),
      message: async (notice) => callNoticeMessage(notice, lead, deps),
      undeliverable: (notice, reason) =>
        `CALL NOTICE NOT DELIVERED: the e-mail that a call was booked (${notice.booking_id}) for lead ${notice.lead_id} cannot be sent (${reason}); Cal.com has the booking. Run \`npm run leads -- bookings\` to see it.`,
    },
    deps,
  );
}

/** One attempt of whatever `leads:due` names: a lead id, one of a day's alerts, or a call notice. */
export const attemptOwed = (id: string, deps: DeliveryDeps) =>
  isAlertKey(id) ? attemptHeldAlert(id, deps) : isCallNoticeKey(id) ? attemptCallNotice(id, deps) : attemptDelivery(id, deps);

async function attempt<T extends { delivery: Delivery }>(owed: Owed<T>, deps: DeliveryDeps): Promise<AttemptOutcome> {
  const { store, mailer, now = Date.now, alert = (m) => console.error(m) } = deps;
  const owner = crypto.randomUUID();
  if (!(await store.lock(owed.id, owner))) return "busy";
  try {
    const record = await owed.load();
    if (!record || (record.delivery.state !== "pending" && record.delivery.state !== "sending")) return "done";
    const save = async (change: Partial<Delivery>, outcome: AttemptOutcome) => {
      const delivery = { ...record.delivery, ...change };
      if (delivery.state !== "pending") delete delivery.next_attempt_at;
      await owed.save({ ...record, delivery });
      return outcome;
    };
    if (owed.ready && !(await owed.ready(record)))
      return save({ next_attempt_at: new Date(now() + retryDelayMs(1)).toISOString() }, "retry");
    const message = await owed.message(record);

    // Any earlier attempt may have reached Postmark even if its answer did not reach us (a timeout, a crash):
    // ask before sending again.
    if (record.delivery.attempts > 0 || record.delivery.state === "sending") {
      const sent = await mailer.findSent(message);
      if (sent) return save({ state: "delivered", message_id: sent, delivered_at: new Date(now()).toISOString() }, "delivered");
    }

    const attempts = record.delivery.attempts + 1;
    await owed.save({ ...record, delivery: { ...record.delivery, state: "sending", attempts } });
    const result = await mailer.send(message);
    switch (result.outcome) {
      case "delivered":
        return save(
          {
            state: "delivered",
            attempts,
            message_id: result.messageId,
            delivered_at: new Date(now()).toISOString(),
            last_error: undefined,
          },
          "delivered",
        );
      case "transient":
        return save(
          {
            state: "pending",
            attempts,
            last_error: result.reason,
            next_attempt_at: new Date(now() + retryDelayMs(attempts)).toISOString(),
          },
          "retry",
        );
      case "permanent":
        alert(owed.undeliverable(record, result.reason));
        return save({ state: "failed", attempts, last_error: result.reason }, "failed");
    }
  } finally {
    await store.unlock(owed.id, owner);
  }
}

/** Every e-mail that is due (leads, and the alerts that leads are held): the scheduled retry job. */
export async function deliverDue(deps: DeliveryDeps, limit = 20): Promise<Record<AttemptOutcome, number>> {
  const counts: Record<AttemptOutcome, number> = { delivered: 0, retry: 0, failed: 0, busy: 0, done: 0 };
  for (const id of await deps.store.dueIds((deps.now ?? Date.now)(), limit)) {
    try {
      counts[await attemptOwed(id, deps)] += 1;
    } catch (error) {
      // It stays due; the next run tries again.
      (deps.alert ?? console.error)(`delivery of ${id} interrupted: ${String(error)}`);
      counts.retry += 1;
    }
  }
  return counts;
}
