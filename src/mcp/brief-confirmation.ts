import { inputRequired, inputResponse, type ClientCapabilities, type InputRequiredResult } from "@modelcontextprotocol/server";
import type { Brief } from "../briefs/schema.ts";
import { contactFields } from "../briefs/form-fields.ts";

/** What the person confirms before a brief is filed: who they are and where the studio writes to them. */
export const confirmedFields = ["full_name", "company_name", "work_email"] as const;
export type Confirmed = Record<(typeof confirmedFields)[number], string>;

/** The key of the form among a round's input requests. */
const formKey = "contact";

/** Form elicitation: declared as `elicitation: {}` (form only, before modes existed) or with a `form` member. */
export const asksByForm = (capabilities: ClientCapabilities | undefined): boolean => {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
};

/**
 * The form the client shows the person: the contact form's own labels and limits for the three fields, each filled in
 * with what the model sent (or with what the person typed, when it is asked again), and one plain sentence about what
 * happens on accept.
 */
export function confirmationForm(studio: string, values: Partial<Confirmed>, problems: string[] = []) {
  const fields = contactFields([]);
  const properties = Object.fromEntries(
    confirmedFields.map((name) => {
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
  const message = [
    `Send this project brief to ${studio}? A person at the studio will read it and e-mail you at the work e-mail below.`,
    "Check your name, company and work e-mail, and correct them if needed. Decline to send nothing.",
    ...(problems.length > 0 ? [`Please fix: ${problems.join("; ")}.`] : []),
  ].join(" ");
  return inputRequired.elicit({ message, requestedSchema: { type: "object", properties, required: [...confirmedFields] } });
}

export const askToConfirm = (form: ReturnType<typeof confirmationForm>, requestState: string): InputRequiredResult =>
  inputRequired({ inputRequests: { [formKey]: form }, requestState });

/** The three fields of a normalised brief, to fill the form with. */
export const confirmedOf = (brief: Brief): Confirmed => ({
  full_name: brief.full_name,
  company_name: brief.company_name,
  work_email: brief.work_email,
});

/**
 * What the person answered: accepted with the three values (each a string; anything else the client added is dropped),
 * declined or cancelled, or nothing usable (no answer under the form's key, or an accept without the three strings).
 */
export type Answer =
  { kind: "accept"; values: Confirmed } | { kind: "decline" } | { kind: "cancel" } | { kind: "none"; typed: Partial<Confirmed> };

export function answerOf(responses: Record<string, unknown> | undefined): Answer {
  const view = inputResponse(responses, formKey);
  if (view.kind !== "elicit") return { kind: "none", typed: {} };
  if (view.action === "decline" || view.action === "cancel") return { kind: view.action };
  const content = view.content ?? {};
  const typed = Object.fromEntries(
    confirmedFields.flatMap((k) => (typeof content[k] === "string" ? [[k, content[k]]] : [])),
  ) as Partial<Confirmed>;
  return confirmedFields.every((k) => typed[k] !== undefined) ? { kind: "accept", values: typed as Confirmed } : { kind: "none", typed };
}
