import { inputRequired, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { briefToolName, briefToolScope } from "../briefs/names.ts";
import { dryRunSchema, receiptOf, receiptSchema, type Accepted } from "../briefs/receipt.ts";
import type { Brief, BriefSchema } from "../briefs/schema.ts";
import type { FieldError } from "../briefs/validate.ts";
import { conditionOf } from "../http/conditions.ts";
import { refusalData } from "../http/formats.ts";
import { Refusal } from "../http/refusal.ts";
import { fileBriefOperation, type BriefServices } from "../operations/briefs.ts";
import { personProperties, type Confirmation } from "./confirmation.ts";
import { performedFor, scopeRefused, writeConfirmed } from "./operation-tool.ts";
import { withIdempotencyKey } from "../operations/operation.ts";
import { jsonSchemaOf } from "./json-schema.ts";
import { fieldLines, refusalResult } from "./refusal-result.ts";
import { structuredResult, toolError, type Tool } from "./tool.ts";

export { briefToolName, briefToolScope };

/** Files a brief through the one operation (channel "mcp"). */
export type BriefFiling = BriefServices;

/**
 * MCP wants one object type for a tool's output: the receipt's fields and the dry run's, each optional, generated from
 * the same zod schemas as the REST answers. `brief` is in both.
 */
export function briefOutputSchema(schema: BriefSchema) {
  const receipt = receiptSchema(schema);
  const dryRun = dryRunSchema(schema);
  return z
    .object({
      ...receipt.partial().shape,
      ...dryRun.partial().shape,
      brief: receipt.shape.brief.describe("The brief as recorded (on a dry run: as it would be recorded), trimmed and normalised."),
    })
    .describe(
      `A receipt for a filed brief (${Object.keys(receipt.shape).join(", ")}), or the result of a dry run (${Object.keys(dryRun.shape).join(", ")}).`,
    );
}

/** Fields to fix, named one by one; the details are every refusal's (`refusalData`: the code beside the errors). */
const invalid = (refusal: Refusal, errors: FieldError[]) =>
  toolError(
    `The brief was NOT filed: ${errors.length} field${errors.length === 1 ? " is" : "s are"} missing or invalid. Fix ${errors.length === 1 ? "it" : "them"} (ask the person if you need to) and call ${briefToolName} again.\n${fieldLines(errors)}\n\n${JSON.stringify(refusalData(refusal), null, 2)}`,
  );

/** What a filing came to: accepted, or refused (an outage included). */
type Filing = Accepted | Refusal;

const confirmationReused =
  "This form was already answered and its brief filed; an answer with other values was NOT filed. To send another brief, call submit_project_brief again without requestState, and the person is asked again.";

/**
 * What a filing came to, as a tool result: the receipt, the dry run, or why nothing was filed. `replayedBy` says what
 * made a replay one: the call's idempotency_key, or the form the person already answered.
 */
function resultOf(outcome: Filing, confirmed = false, replayedBy: "idempotency_key" | "confirmation" = "idempotency_key"): CallToolResult {
  // A refusal the model can act on is a tool result with isError, not a protocol error (MCP: tools).
  if (outcome instanceof Refusal) {
    const errors = (outcome.options.extensions?.errors ?? []) as FieldError[];
    const fixable = outcome.condition === "invalid_brief" || outcome.condition === "invalid_idempotency_key";
    if (fixable && errors.length > 0) return invalid(outcome, errors);
    // An outage recorded nothing, and says so (its words say when to retry).
    return refusalResult(
      outcome,
      conditionOf(outcome.condition).status === 503 ? "The brief was NOT recorded:" : "The brief was NOT filed:",
    );
  }
  if (outcome.kind === "dry_run") return structuredResult(outcome.result.message, outcome.result);
  const { receipt } = outcome;
  const said = {
    filed: `Filed: lead ${receipt.lead_id}, received ${receipt.received_at}.`,
    replayed:
      replayedBy === "confirmation"
        ? `This form was already answered and its brief filed: lead ${receipt.lead_id}; a later answer to it changes nothing.`
        : `Already filed with this idempotency_key: lead ${receipt.lead_id}.`,
    repeat: `You sent this very brief a few minutes ago: it was not filed again. Lead ${receipt.lead_id}.`,
  }[outcome.kind];
  const person = confirmed ? " The person confirmed their name, company and work e-mail in your client's form." : "";
  return structuredResult(`${said}${person} ${receipt.next_steps}`, receipt);
}

const notFiled = {
  decline:
    "The person declined the confirmation form, so the brief was NOT filed and nobody will e-mail them. Do not file it again unless they ask you to.",
  cancel:
    "The person closed the confirmation form without answering, so the brief was NOT filed and nobody will e-mail them. Ask whether they want to send it before you call submit_project_brief again.",
  before:
    "The person declined this form before, so the brief was NOT filed, and a later answer to the same form files nothing. If they now want to send it, call submit_project_brief again without requestState, and they are asked again.",
};

/** What the person confirms before a brief is filed: who they are and where the studio writes to them. */
const confirmedFields = ["full_name", "company_name", "work_email"] as const;
type Confirmed = Record<(typeof confirmedFields)[number], string>;

/**
 * The form the client shows the person: the contact form's own labels and limits for the three fields, each filled in
 * with what the model sent (or with what the person typed, when it is asked again), and one plain sentence about what
 * happens on accept.
 */
function confirmationForm(studio: string, values: Partial<Confirmed>, problems: string[] = []) {
  const properties = personProperties(confirmedFields, values);
  const message = [
    `Send this project brief to ${studio}? A person at the studio will read it and e-mail you at the work e-mail below.`,
    "Check your name, company and work e-mail, and correct them if needed. Decline to send nothing.",
    ...(problems.length > 0 ? [`Please fix: ${problems.join("; ")}.`] : []),
  ].join(" ");
  return inputRequired.elicit({ message, requestedSchema: { type: "object", properties, required: [...confirmedFields] } });
}

/** The three fields of a normalised brief, to fill the form with. */
const confirmedOf = (brief: Brief): Confirmed => ({
  full_name: brief.full_name,
  company_name: brief.company_name,
  work_email: brief.work_email,
});

/** The person confirms their own brief: the three contact fields, checked by a dry run of the operation. */
const briefConfirmation = (
  services: BriefServices,
  check: (body: Record<string, unknown>) => Promise<Filing>,
  owner: string,
): Confirmation<keyof Confirmed> => ({
  tool: briefToolName,
  fields: confirmedFields,
  form: async (values, problems) => confirmationForm(services.studio, values, problems),
  async check(body) {
    const checked = await check(body);
    if (!(checked instanceof Refusal) && checked.kind === "dry_run") return { kind: "ok", values: confirmedOf(checked.result.brief) };
    const answer = resultOf(checked);
    const errors = checked instanceof Refusal && checked.condition === "invalid_brief" ? checked.options.extensions?.errors : undefined;
    return errors ? { kind: "invalid", errors: errors as FieldError[], answer } : { kind: "refused", answer };
  },
  declined: notFiled,
  async settled(key, byForm, sameAs) {
    const parsed = sameAs && services.schema.safeParse(sameAs);
    if (parsed && !parsed.success) return undefined;
    const { dry_run: _, ...brief } = parsed ? parsed.data : {};
    const filed = await services.filedUnder(owner, key, parsed ? (brief as Brief) : undefined);
    return filed ? resultOf(receiptOf(filed, services), true, byForm ? "confirmation" : "idempotency_key") : undefined;
  },
});

/** submit_project_brief: the one write, its input schema the operation's, with its idempotency key. */
export function briefTool(services: BriefServices): Tool {
  const operation = fileBriefOperation(services.schema);
  const args = withIdempotencyKey(
    operation.input,
    "Optional. Any unique string (a UUID, say) that you reuse when you retry the same brief: the retry returns the original receipt instead of filing twice.",
  );
  return {
    name: operation.name,
    title: "File a project brief",
    description: [
      `Files a project brief with ${services.studio}. This creates a real lead, and a person at the studio answers by e-mail.`,
      "Call it ONLY when the person you act for asked to be contacted and has confirmed their full name, company name and work e-mail; ask for them, never guess or invent them, and read the brief back before filing.",
      "Where your client can show forms (elicitation, MCP 2026-07-28), the server also asks the person to confirm those three fields in a form before anything is filed; if they decline, nothing is filed.",
      "full_name, company_name and work_email are required; every other field is optional (site_size takes an id from get_offers).",
      "Set dry_run to true to check a brief first: it is authenticated and validated like a real one, then nothing is filed and nobody is e-mailed.",
      `Needs an OAuth access token with the scope ${operation.scope}: without one the server answers HTTP 401 and the client starts the OAuth flow.`,
      "Not idempotent unless you pass idempotency_key: a retry with the same key and brief returns the original receipt.",
      "Invalid fields come back as an error naming each field; fix them and call again.",
    ].join(" "),
    inputSchema: jsonSchemaOf(args, "input"),
    outputSchema: jsonSchemaOf(briefOutputSchema(services.schema), "output"),
    annotations: { title: "File a project brief", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (args, call) => {
      const { caller } = call;
      const refused = scopeRefused(caller, operation.scope, "Filing a brief", "Nothing was filed.");
      if (refused) return refused;
      const { idempotency_key: key, ...body } = args;
      const file = (body: Record<string, unknown>, key: unknown) => performedFor(operation, body, caller, services, key);
      const spec = async () => briefConfirmation(services, (b) => file({ ...b, dry_run: true }, key), caller!.grantId);
      return writeConfirmed({ spec, args, body, call, reused: confirmationReused }, file, (result, confirmed, byForm) =>
        resultOf(result, confirmed, byForm ? "confirmation" : "idempotency_key"),
      );
    },
  };
}
