import { briefLimits, briefSchema, budgetRanges } from "./schema.ts";

/** One field of the brief as a person is asked for it (the contact form, MCP's confirmation form); `name` is the brief field it fills (the honeypot fills none). */
export interface FormField {
  name: string;
  label: string;
  /** The brief field's own description (the zod schema's), for an agent filling the form in for a person (WebMCP). */
  description: string;
  kind: "text" | "email" | "select" | "textarea";
  required?: boolean;
  maxLength?: number;
  autocomplete?: string;
  hint?: string;
  options?: [value: string, label: string][];
}

const budgetLabels: Record<(typeof budgetRanges)[number], string> = {
  under_10k: "Under $10,000",
  "10k_25k": "$10,000 to $25,000",
  "25k_50k": "$25,000 to $50,000",
  "50k_100k": "$50,000 to $100,000",
  over_100k: "Over $100,000",
  not_sure: "Not sure yet",
};

/** The contact form: the brief's required fields and the few optional ones a person fills in easily. */
export function contactFields(siteSizes: { id: string; name: string; pages: { min: number; max: number } }[]): FormField[] {
  // The descriptions do not depend on the sizes on offer, so MCP's confirmation form may pass none.
  const shape = briefSchema(siteSizes.map((s) => s.id) as [string, ...string[]]).shape;
  const fields: Omit<FormField, "description">[] = [
    { name: "full_name", label: "Your name", kind: "text", required: true, maxLength: briefLimits.full_name, autocomplete: "name" },
    {
      name: "company_name",
      label: "Company",
      kind: "text",
      required: true,
      maxLength: briefLimits.company_name,
      autocomplete: "organization",
    },
    {
      name: "work_email",
      label: "Work e-mail",
      kind: "email",
      required: true,
      maxLength: briefLimits.work_email,
      autocomplete: "email",
      hint: "We reply to this address.",
    },
    {
      name: "site_size",
      label: "Site size",
      kind: "select",
      options: [["", "Not sure yet"], ...siteSizes.map((s): [string, string] => [s.id, `${s.name} (${s.pages.min}–${s.pages.max} pages)`])],
    },
    {
      name: "budget_range",
      label: "Budget (USD)",
      kind: "select",
      options: [["", "Rather not say"], ...budgetRanges.map((b): [string, string] => [b, budgetLabels[b]])],
    },
    {
      name: "message",
      label: "About the project",
      kind: "textarea",
      maxLength: briefLimits.message,
      hint: "What the site is for, what exists today, and any dates that matter.",
    },
  ];
  return fields.map((f) => ({ ...f, description: shape[f.name as keyof typeof shape].description ?? "" }));
}

/** A field people never see or fill; software that fills every field gives itself away. */
export const honeypot = "website";
