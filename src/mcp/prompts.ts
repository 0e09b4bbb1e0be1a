import { z } from "zod";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingOfferedIn, bookingToolNames } from "../booking/names.ts";
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
    ...(bookingOfferedIn(prebuilt) ? [bookIntroCallPrompt(prebuilt)] : []),
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

/** From a brief to a booked intro call, with the person choosing and confirming the time. */
function bookIntroCallPrompt(prebuilt: PrebuiltResources): PromptDefinition {
  const studio = prebuilt.site.name;
  const { freeTimes, book, cancel } = bookingToolNames;
  const minutes = prebuilt.contact.booking.duration_minutes;
  return {
    name: "book_intro_call",
    title: "Book the intro call after a brief",
    description: `Guides the assistant from a filed brief to ${studio}'s ${minutes}-minute intro call, booked at a time the person chose and confirmed.`,
    arguments: {
      lead_id: z.string().optional().describe(`The lead_id ${briefToolName} returned, if a brief was filed.`),
      when: z.string().optional().describe('When the person would like to talk, in their words ("next Tuesday afternoon").'),
    },
    text: ({ lead_id, when }) =>
      [
        `I would like to book an intro call with ${studio}.${when ? ` I would prefer: ${when}.` : ""}`,
        "",
        "Please book it for me, in this order:",
        `1. ${lead_id ? `The brief is already filed: lead ${lead_id}.` : `If I have not sent a brief yet, offer to file one first (prompt prepare_project_brief, tool ${briefToolName}); a call is better with a brief.`}`,
        "2. Ask for my time zone if you do not know it (an IANA name such as Europe/Berlin).",
        `3. Call ${freeTimes} with my time zone${when ? " and the days I named" : ""}, and offer me three or four times that suit me. Never choose for me.`,
        `4. Ask for my full name and work e-mail (the invitation goes there) unless I already gave them for the brief; never guess them.`,
        `5. Read back the time, my name and e-mail, and ask me to confirm. Then call ${book} with dry_run set to true${lead_id ? ` and lead_id ${lead_id}` : ", and the brief's lead_id if there is one"}.`,
        `6. Only after I confirmed, call ${book} without dry_run and tell me the time and the booking_id. If the time was taken meanwhile, offer me others from the fresh free times the error lists.`,
        `If I change my mind later, ${cancel} cancels it with the booking_id.`,
      ].join("\n"),
  };
}
