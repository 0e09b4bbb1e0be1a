import { z } from "zod";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { briefToolName } from "./brief-tool.ts";

/** A prompt: its arguments (all strings, as MCP prompt arguments are) and the messages it expands to. */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: Record<string, z.ZodOptional<z.ZodString>>;
  text(args: Record<string, string | undefined>): string;
}

export function promptDefinitions(prebuilt: PrebuiltResources): PromptDefinition[] {
  const studio = prebuilt.site.name;
  return [
    {
      name: "prepare_project_brief",
      title: "Prepare and file a project brief",
      description: `Guides the assistant to collect, confirm and only then file a project brief with ${studio}.`,
      arguments: {
        project: z.string().optional().describe("What the person has said about the project so far, if anything."),
      },
      text: ({ project }) =>
        [
          `I would like ${studio} to contact me about a website project.${project ? ` What I have in mind: ${project}` : ""}`,
          "",
          "Please help me file a project brief, in this order:",
          "1. Read get_offers (and get_company if it helps) and tell me which site size or the care plan fits, and roughly what it costs.",
          "2. Ask me for my full name, my company name and my work e-mail. Never guess or invent them. Ask, optionally, about project type, budget range, timeline, launch date, current website, page count, time zone and anything else I want to say.",
          "3. Read the whole brief back to me and ask me to confirm that I want to be contacted.",
          `4. Call ${briefToolName} with dry_run set to true; if it names fields to fix, ask me and try again.`,
          `5. Only after I have confirmed, call ${briefToolName} without dry_run, and tell me the lead id and what happens next.`,
          "If I do not confirm, file nothing.",
        ].join("\n"),
    },
    {
      name: "summarize_studio",
      title: `Summarise ${studio}`,
      description: `Asks for a short, sourced summary of ${studio}: what it does and does not take on, its offers and its results.`,
      arguments: {},
      text: () =>
        [
          `Summarise ${studio} for me in a few short paragraphs, using only its published facts:`,
          "what it does and what it does not take on (get_company), its offers and prices in USD (get_offers),",
          "and two case studies with their measured results (list_case_studies). Say how to contact it (get_contact).",
        ].join(" "),
    },
  ];
}
