import { briefToolName, briefToolScope } from "../briefs/names.ts";
import type { FilingRequest, FilingResult, PipelineDeps } from "../briefs/pipeline.ts";
import { dryRunOf, receiptOf, type Accepted, type ReceiptWording } from "../briefs/receipt.ts";
import type { Brief, BriefSchema } from "../briefs/schema.ts";
import type { Caller, Operation } from "./operation.ts";

/**
 * Filing a brief as the deployment runs it: its brief schema (the offers' site sizes), the pipeline (its code loaded
 * with the first brief), and what the receipt says about the studio.
 */
export interface BriefServices extends ReceiptWording {
  schema: BriefSchema;
  file(brief: Brief, request: FilingRequest): Promise<FilingResult>;
  /** What an owner's idempotency key filed (src/briefs/pipeline.ts `filedUnder`), if it filed anything (for `brief`: it). */
  filedUnder(owner: string, idempotencyKey: string, brief?: Brief): Promise<FilingResult | null>;
  /** Refuses a key the owner used for another brief (`checkKey`). */
  checkKey(owner: string, idempotencyKey: string, brief: Brief): Promise<void>;
}

/** The services over the deployment's pipeline: its code loads with the first brief, so a read never needs it. */
export function briefServices(pipeline: PipelineDeps, wording: ReceiptWording): BriefServices {
  const code = () => import("../briefs/pipeline.ts");
  return {
    schema: pipeline.schema,
    ...wording,
    file: async (brief, request) => (await code()).fileBrief(brief, request, pipeline),
    filedUnder: async (owner, key, brief) => (await code()).filedUnder(owner, key, pipeline.store, brief),
    checkKey: async (owner, key, brief) => (await code()).checkKey(owner, key, brief, pipeline.store),
  };
}

const requestOf = (caller: Caller, channel: FilingRequest["channel"], idempotencyKey?: string): FilingRequest => ({
  channel,
  clientId: caller.clientId,
  owner: caller.owner,
  address: caller.address,
  // Stryker disable next-line ConditionalExpression: an idempotencyKey member that is undefined is read as none (fileBrief)
  ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  ...(caller.waitUntil ? { waitUntil: caller.waitUntil } : {}),
});

/** A project brief, filed by an agent with a token (REST, MCP, A2A): a real lead a person answers. */
export const fileBriefOperation = (schema: BriefSchema) =>
  ({
    name: briefToolName,
    scope: briefToolScope,
    input: schema,
    noun: "brief",
    invalid: "invalid_brief",
    idempotent: true,
    async run({ dry_run, ...brief }, { caller, channel, idempotencyKey, services }) {
      if (dry_run) {
        // A dry run answers what sending it would: a key used for another brief is refused.
        if (idempotencyKey !== undefined) await services.checkKey(caller.owner, idempotencyKey, brief);
        return dryRunOf(brief);
      }
      return receiptOf(await services.file(brief, requestOf(caller, channel, idempotencyKey)), services);
    },
  }) satisfies Operation<BriefSchema, Accepted, BriefServices>;

export type FileBrief = ReturnType<typeof fileBriefOperation>;

/** The site's contact form: a brief sent by a person from a page of the site, without a token and without a dry run. */
export const sendContactFormOperation = (schema: BriefSchema) => {
  const input = schema.omit({ dry_run: true });
  return {
    name: "send_project_brief",
    scope: undefined,
    input,
    noun: "brief",
    invalid: "invalid_brief",
    idempotent: false,
    async run(brief, { caller, services }) {
      return receiptOf(await services.file(brief as Brief, requestOf(caller, "form")), services);
    },
  } satisfies Operation<typeof input, ReturnType<typeof receiptOf>, BriefServices>;
};
