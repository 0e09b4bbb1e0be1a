import { inputRequired, inputResponse, type ClientCapabilities, type InputRequiredResult } from "@modelcontextprotocol/server";
import { contactFields } from "../briefs/form-fields.ts";
import type { FieldError } from "../briefs/validate.ts";
import { callDigest, stateRefused } from "./request-state.ts";
import { toolError, type Rounds, type ToolResult } from "./tool.ts";

/** Form elicitation: declared as `elicitation: {}` (form only, before modes existed) or with a `form` member. */
export const asksByForm = (capabilities: ClientCapabilities | undefined): boolean => {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
};

/** Form fields for who the person is, with the contact form's own labels, hints and limits, filled in with `values`. */
export function personProperties<F extends string>(names: readonly F[], values: Partial<Record<F, string>>) {
  const fields = contactFields([]);
  return Object.fromEntries(
    names.map((name) => {
      const field = fields.find((f) => f.name === name)!;
      return [
        name,
        {
          type: "string" as const,
          title: field.label,
          ...(field.hint ? { description: field.hint } : {}),
          ...(field.kind === "email" ? { format: "email" as const } : { minLength: 1 }),
          maxLength: field.maxLength,
          ...(values[name] !== undefined ? { default: values[name] } : {}),
        },
      ];
    }),
  );
}

/** The key of the form among a round's input requests. */
const formKey = "contact";

export type ElicitForm = ReturnType<typeof inputRequired.elicit>;

export const askToConfirm = (form: ElicitForm, requestState: string): InputRequiredResult =>
  inputRequired({ inputRequests: { [formKey]: form }, requestState });

/**
 * What the person answered: accepted with every field as a string (anything else the client added is dropped),
 * declined or cancelled, or nothing usable (no answer under the form's key, or an accept without every field).
 */
export type Answer<F extends string> =
  | { kind: "accept"; values: Record<F, string> }
  | { kind: "decline" }
  | { kind: "cancel" }
  | { kind: "none"; typed: Partial<Record<F, string>> };

export function answerOf<F extends string>(responses: Record<string, unknown> | undefined, fields: readonly F[]): Answer<F> {
  const view = inputResponse(responses, formKey);
  if (view.kind !== "elicit") return { kind: "none", typed: {} };
  if (view.action === "decline" || view.action === "cancel") return { kind: view.action };
  const content = view.content ?? {};
  const typed = Object.fromEntries(fields.flatMap((k) => (typeof content[k] === "string" ? [[k, content[k]]] : []))) as Partial<
    Record<F, string>
  >;
  return fields.every((k) => typed[k] !== undefined) ? { kind: "accept", values: typed as Record<F, string> } : { kind: "none", typed };
}

/** What a dry run of the call says: the values to show the person, the fields to fix, or an answer that ends it. */
export type Checked<F extends string> =
  | { kind: "ok"; values: Record<F, string> }
  | { kind: "invalid"; errors: FieldError[]; answer: ToolResult }
  | { kind: "refused"; answer: ToolResult };

/** One tool's confirmation: the fields the person confirms, its form, its dry run, and what it says when not confirmed. */
export interface Confirmation<F extends string> {
  tool: string;
  fields: readonly F[];
  form(values: Partial<Record<F, string>>, problems: string[]): Promise<ElicitForm>;
  check(body: Record<string, unknown>): Promise<Checked<F>>;
  /** Why nothing was written: the person declined or cancelled now, or declined this form before (`before`). */
  declined: { decline: string; cancel: string; before: string };
  /**
   * What the write under `key` came to, if it was made: the call's own idempotency key, or else the form's
   * (`confirmationKey`, `byForm`) once a form was asked. Any later answer reports it, and the person is not asked again.
   * `sameAs`: a new call under its own key, answered only by what the key wrote for that very body.
   */
  settled(key: string, byForm: boolean, sameAs?: Record<string, unknown>): Promise<ToolResult | undefined>;
}

/**
 * The person confirms before a write (2026-07-28, a client that shows forms): the first call answers with the form,
 * filled in from the arguments, and a signed state naming this exact call; the client's retry carries the person's
 * answer and that state. Gives the values to write with, once the person accepted, and the form's name (kept through
 * every round it is asked again, so the one write an answer makes is idempotent under it); otherwise the answer: the form,
 * asked again where the answer was unusable, or that nothing was done.
 */
export async function confirmByForm<F extends string>(
  spec: Confirmation<F>,
  args: Record<string, unknown>,
  body: Record<string, unknown>,
  rounds: Rounds,
): Promise<{ answer: ToolResult } | { confirmed: Record<F, string>; form: string }> {
  const call = await callDigest(spec.tool, args);
  const state = rounds.state as { round?: unknown; form?: unknown; call?: unknown } | null | undefined;
  // Each form asked is a new round, so its state differs from the one answered, even within the same second.
  const round = typeof state?.round === "number" ? state.round : 0;
  const form = typeof state?.form === "string" ? state.form : crypto.randomUUID();
  const ask = async (values: Partial<Record<F, string>>, problems: string[] = []) => ({
    answer: askToConfirm(await spec.form(values, problems), await rounds.mint({ call, round: round + 1, form })),
  });

  // The state verified (signed here, in time, for this grant); it must also name these very arguments.
  if (state !== undefined && state?.call !== call) throw stateRefused();
  const answer = answerOf(rounds.inputResponses, spec.fields);
  // A write that was made (under the call's key, or this form's) is what every later call and answer reports, whatever
  // it says: a decline, other values or none. It happened, and the person is not asked again.
  const ownKey = typeof args.idempotency_key === "string" ? args.idempotency_key : undefined;
  const settled = () => {
    const key = ownKey ?? (state === undefined ? undefined : confirmationKey(form));
    // A round of this very call (its state names these arguments) is the same write; a new call under a key that wrote
    // something else is not, and its own check refuses the key.
    const sameAs = ownKey !== undefined && state === undefined ? body : undefined;
    return key === undefined ? Promise.resolve(undefined) : spec.settled(key, ownKey === undefined, sameAs);
  };
  const done = await settled();
  if (done) return { answer: done };
  if (state === undefined) {
    // A person is only asked about a write that would be made.
    const checked = await spec.check(body);
    return checked.kind === "ok" ? ask(checked.values) : { answer: checked.answer };
  }

  if (answer.kind === "decline" || answer.kind === "cancel") {
    // The first decision on a form stands: a decline is never followed by a write.
    if ((await rounds.decide(form, "decline")) === "decline") return { answer: toolError(spec.declined[answer.kind]) };
    // Accepted first, by an answer still at work: its write, once made.
    const made = await settledSoon(settled);
    return { answer: made ?? toolError(acceptedBefore) };
  }
  if (answer.kind === "none") {
    const sent = Object.fromEntries(spec.fields.flatMap((k) => (typeof body[k] === "string" ? [[k, body[k]]] : [])));
    return ask({ ...sent, ...answer.typed });
  }
  const checked = await spec.check({ ...body, ...answer.values });
  if (checked.kind === "ok") {
    if ((await rounds.decide(form, "accept")) === "decline") return { answer: toolError(spec.declined.before) };
    return { confirmed: answer.values, form };
  }
  // What the person typed is asked again with the problem named; anything else is the model's to fix.
  const own = (field: string) => (spec.fields as readonly string[]).includes(field.slice(1));
  if (checked.kind === "invalid" && checked.errors.every((e) => own(e.field)))
    return ask(
      answer.values,
      checked.errors.map((e) => e.message),
    );
  return { answer: checked.answer };
}

/** The write of a form another answer accepted, once it is made: asked again a few times while that answer works. */
async function settledSoon(settled: () => Promise<ToolResult | undefined>): Promise<ToolResult | undefined> {
  for (let tries = 0; tries < 30; tries++) {
    const made = await settled();
    if (made) return made;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

/** A form accepted before, whose write is not recorded (still under way, or refused): the accept's own answer says which. */
const acceptedBefore =
  "The person had already accepted this form, and the answer to that acceptance says what was done; a later answer to the same form changes nothing.";

/** The idempotency key of a write the person confirmed in a form, when the call carried none: the form's own name. */
export const confirmationKey = (form: string) => `mcp-confirmation-${form}`;
