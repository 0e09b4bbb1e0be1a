import { briefDescription } from "../briefs/schema.ts";

/** The form's submit button, which the person presses themselves. */
export const submitLabel = "Send the brief";

/**
 * The contact form as a WebMCP tool, declared by attributes on the form (no script): an agent in the person's browser
 * sees one tool that fills the form in. Without `toolautosubmit`, the browser then focuses the submit button and the
 * person sends the brief themselves.
 */
export const contactTool = {
  name: "send_project_brief",
  description:
    `${briefDescription} This tool fills in the contact form on this page for the person you act for: their name, company ` +
    "and work e-mail, and if they like the site size, budget and a few lines about the project. It does not send the form: " +
    `the person checks what you filled in and presses "${submitLabel}" themselves. Use it only when they asked to be ` +
    "contacted; ask them for their details, never invent them.",
} as const;
