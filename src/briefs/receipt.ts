import type { QuotaResult } from "../limits/limiter.ts";
import { z } from "zod";
import type { FilingResult } from "./pipeline.ts";
import { inWords } from "../limits/policies.ts";
import { leadIdPattern } from "./lead.ts";
import { repeatWindowSeconds } from "./store.ts";
import type { Brief, BriefSchema } from "./schema.ts";

/**
 * What a client is told about its brief, whatever the door: the receipt of a filed brief, or the result of a dry run.
 * REST, MCP, A2A and the contact form render these values in their own format; the OpenAPI document and the MCP
 * tool's output schema are generated from the same zod schemas.
 */
export const receiptSchema = (brief: BriefSchema) =>
  z
    .object({
      lead_id: z.string().regex(leadIdPattern).describe("The lead's id; quote it if you write to the studio."),
      status: z
        .enum(["received", "already_received"])
        .describe(
          `already_received: this client sent this very brief in the last ${inWords(repeatWindowSeconds)}; this is that lead. Another client's brief is never answered.`,
        ),
      received_at: z.iso.datetime().describe("When the lead was received, ISO 8601."),
      next_steps: z.string().describe("What happens next, in words, to tell the person."),
      brief: brief.omit({ dry_run: true }).describe("The brief as recorded: trimmed and normalised."),
    })
    .describe("A filed brief. A person replies by e-mail to work_email.");

export const dryRunSchema = (brief: BriefSchema) =>
  z
    .object({
      dry_run: z.literal(true).describe("Always true here: this was a dry run, so nothing was filed."),
      valid: z.literal(true).describe("Always true here: the brief is valid and the token's scope allows filing it."),
      message: z.string().describe("Says plainly that nothing was filed."),
      brief: brief.omit({ dry_run: true }).describe("The brief as it would be recorded."),
    })
    .describe(
      "A dry run: the brief is valid and the token's scope allows filing it (quotas count only what is sent); nothing was filed and nobody was e-mailed.",
    );

export type Receipt = z.output<ReturnType<typeof receiptSchema>>;
export type DryRunResult = z.output<ReturnType<typeof dryRunSchema>>;

/** What the studio's receipts say about it: its name and its response time (content/contact.yaml). */
export interface ReceiptWording {
  studio: string;
  responseTime: string;
}

export const dryRunMessage =
  "Dry run: the brief is valid and the token's scope allows filing it; its quotas count it only when it is sent. Nothing was filed and nobody was e-mailed.";

/**
 * A brief's accepted outcome as the client sees it: `filed` (a new lead), `replayed` (the same Idempotency-Key and
 * brief again: the original receipt), `repeat` (this client's very same brief within the repeat window), or a dry run.
 * Refusals (invalid fields, quota, a reused key) are thrown, rendered by each door from the conditions table.
 */
export type Accepted =
  { kind: "filed" | "replayed" | "repeat"; receipt: Receipt; counted?: QuotaResult[] } | { kind: "dry_run"; result: DryRunResult };

/** A dry run's answer: the brief as it would be recorded; nothing filed. */
export const dryRunOf = (brief: Brief): Accepted => ({
  kind: "dry_run",
  result: { dry_run: true, valid: true, message: dryRunMessage, brief },
});

/** A filed brief (or the owner's earlier one, answered again) as the client is told of it. */
export function receiptOf(result: FilingResult, { studio, responseTime }: ReceiptWording): Extract<Accepted, { receipt: Receipt }> {
  const { lead } = result;
  const kind = result.kind === "filed" ? "filed" : result.reason === "idempotency_key" ? "replayed" : "repeat";
  return {
    kind,
    ...(result.kind === "filed" && result.counted ? { counted: result.counted } : {}),
    receipt: {
      lead_id: lead.id,
      status: kind === "repeat" ? "already_received" : "received",
      received_at: lead.received_at,
      next_steps: `A person at ${studio} will reply by e-mail to ${lead.brief.work_email}. ${responseTime}`,
      brief: lead.brief,
    },
  };
}
