import { retryDelayMs, type Lead } from "./lead.ts";
import { leadMessage } from "./mail.ts";
import type { Mailer } from "./mailer.ts";
import type { LeadStore } from "./store.ts";

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

/**
 * One delivery attempt of one lead's e-mail, at most one at a time per lead (a lock), and never a second e-mail:
 * the attempt is counted (`sending`) before Postmark is called, and every later attempt first asks Postmark for a
 * message carrying this lead's id, so an answer lost to a timeout or a crash never leads to a second send.
 */
export async function attemptDelivery(id: string, deps: DeliveryDeps): Promise<AttemptOutcome> {
  const { store, mailer, now = Date.now, alert = (m) => console.error(m) } = deps;
  const owner = crypto.randomUUID();
  if (!(await store.lock(id, owner))) return "busy";
  try {
    const lead = await store.get(id);
    if (!lead || lead.delivery.state === "delivered" || lead.delivery.state === "failed") return "done";

    // Any earlier attempt may have reached Postmark even if its answer did not reach us (a timeout, a crash):
    // ask before sending again.
    if (lead.delivery.attempts > 0 || lead.delivery.state === "sending") {
      const sent = await mailer.findSent(lead.id);
      if (sent)
        return save(store, lead, { state: "delivered", message_id: sent, delivered_at: new Date(now()).toISOString() }, "delivered");
    }

    await store.saveDelivery(withDelivery(lead, { state: "sending", attempts: lead.delivery.attempts + 1 }));
    const result = await mailer.send(leadMessage(lead, deps));
    const attempts = lead.delivery.attempts + 1;
    switch (result.outcome) {
      case "delivered":
        return save(
          store,
          lead,
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
          store,
          lead,
          {
            state: "pending",
            attempts,
            last_error: result.reason,
            next_attempt_at: new Date(now() + retryDelayMs(attempts)).toISOString(),
          },
          "retry",
        );
      case "permanent":
        alert(
          `LEAD NOT DELIVERED: ${lead.id} from ${lead.brief.company_name} cannot be e-mailed (${result.reason}). Run \`npm run leads\` to see it, fix the cause, then resend it.`,
        );
        return save(store, lead, { state: "failed", attempts, last_error: result.reason }, "failed");
    }
  } finally {
    await store.unlock(id, owner);
  }
}

/** Every lead whose e-mail is due: the scheduled retry job. */
export async function deliverDue(deps: DeliveryDeps, limit = 20): Promise<Record<AttemptOutcome, number>> {
  const counts: Record<AttemptOutcome, number> = { delivered: 0, retry: 0, failed: 0, busy: 0, done: 0 };
  for (const id of await deps.store.dueIds((deps.now ?? Date.now)(), limit)) {
    try {
      counts[await attemptDelivery(id, deps)] += 1;
    } catch (error) {
      // The lead stays due; the next run tries again.
      (deps.alert ?? console.error)(`delivery of ${id} interrupted: ${String(error)}`);
      counts.retry += 1;
    }
  }
  return counts;
}

const withDelivery = (lead: Lead, change: Partial<Lead["delivery"]>): Lead => ({ ...lead, delivery: { ...lead.delivery, ...change } });

async function save(store: LeadStore, lead: Lead, change: Partial<Lead["delivery"]>, outcome: AttemptOutcome): Promise<AttemptOutcome> {
  const delivery = { ...lead.delivery, ...change };
  if (delivery.state !== "pending") delete delivery.next_attempt_at;
  await store.saveDelivery({ ...lead, delivery });
  return outcome;
}
