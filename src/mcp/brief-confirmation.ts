import { inputRequired } from "@modelcontextprotocol/server";
import type { Brief } from "../briefs/schema.ts";
import { contactFields } from "../briefs/form-fields.ts";

/** What the person confirms before a brief is filed: who they are and where the studio writes to them. */
export const confirmedFields = ["full_name", "company_name", "work_email"] as const;
export type Confirmed = Record<(typeof confirmedFields)[number], string>;

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

/**
 * The form the client shows the person: the contact form's own labels and limits for the three fields, each filled in
 * with what the model sent (or with what the person typed, when it is asked again), and one plain sentence about what
 * happens on accept.
 */
export function confirmationForm(studio: string, values: Partial<Confirmed>, problems: string[] = []) {
  const properties = personProperties(confirmedFields, values);
  const message = [
    `Send this project brief to ${studio}? A person at the studio will read it and e-mail you at the work e-mail below.`,
    "Check your name, company and work e-mail, and correct them if needed. Decline to send nothing.",
    ...(problems.length > 0 ? [`Please fix: ${problems.join("; ")}.`] : []),
  ].join(" ");
  return inputRequired.elicit({ message, requestedSchema: { type: "object", properties, required: [...confirmedFields] } });
}

/** The three fields of a normalised brief, to fill the form with. */
export const confirmedOf = (brief: Brief): Confirmed => ({
  full_name: brief.full_name,
  company_name: brief.company_name,
  work_email: brief.work_email,
});
