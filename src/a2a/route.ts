import { Message } from "@a2a-js/sdk";
import { bookingScope, bookingSkillIds } from "../booking/names.ts";
import type { CatalogId } from "../resources/catalog.ts";
import { freeTimesKeywords } from "./booking-skills.ts";
import { briefSkillId, isReadSkillId, readSkills } from "./skills.ts";

/**
 * Which skill a message asks for. The HTTP layer decides from the raw JSON (before dispatch, to ask for a token at
 * the HTTP level) and the executor from the SDK's message; both go through `chooseSkill`, so they cannot disagree.
 *
 * 1. A message that continues a task (taskId) continues that task's skill (the task says which): only the writes (the
 *    brief, booking and cancelling the intro call) make tasks, and all of them need svc:brief.
 * 2. An explicit skill id: `message.metadata.skillId`, else `"skill"` in the first data part. The booking skills are
 *    skills only where the card offers them (`booking`); elsewhere their ids are unknown, as any other.
 * 3. A data part holding a brief's required field (full_name, company_name, work_email) is a brief. Booking and
 *    cancelling are only ever chosen by name.
 * 4. Keywords in the text parts pick a read skill, free times included where offered (most matches wins; ties go to the
 *    earlier skill, free times coming just before contact).
 * 5. Otherwise: help (the list of skills and the API index).
 */
export interface MessageView {
  taskId?: string;
  skillId?: unknown;
  texts: string[];
  data: unknown[];
  /** Parts that are neither text nor data (files, bytes, URLs). */
  otherParts: number;
}

/** The skills whose messages make tasks. */
export type TaskSkillId = typeof briefSkillId | typeof bookingSkillIds.book | typeof bookingSkillIds.cancel;

/** The scope every write needs: one for all, since a message continuing a task names no skill (booking's is the brief's). */
export const writeScope = bookingScope;

export type Route =
  /** A write: `skill` named, or undefined for a message continuing a task (the task's own skill). */
  | { kind: "task"; skill?: TaskSkillId }
  | { kind: "free-times" }
  | { kind: "read"; skill: CatalogId; caseStudyId?: string }
  | { kind: "help"; unknownSkill?: string };

/** What the card offers beyond the reads and the brief. */
export interface Offered {
  booking: boolean;
}

const briefSignals = ["full_name", "company_name", "work_email"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function chooseSkill(view: MessageView, { booking }: Offered): Route {
  if (view.taskId) return { kind: "task" };
  const firstObject = view.data.find(isObject);
  const explicit = view.skillId ?? firstObject?.skill;
  if (explicit === briefSkillId) return { kind: "task", skill: briefSkillId };
  if (booking && (explicit === bookingSkillIds.book || explicit === bookingSkillIds.cancel)) return { kind: "task", skill: explicit };
  if (booking && explicit === bookingSkillIds.freeTimes) return { kind: "free-times" };
  if (isReadSkillId(explicit)) {
    const id = firstObject?.id;
    return explicit === "case-studies" && typeof id === "string"
      ? { kind: "read", skill: explicit, caseStudyId: id }
      : { kind: "read", skill: explicit };
  }
  // Named by any JSON value: shown as written (String() throws on an object whose toString is not a function).
  if (explicit !== undefined) return { kind: "help", unknownSkill: typeof explicit === "string" ? explicit : JSON.stringify(explicit) };
  if (view.data.some((d) => isObject(d) && briefSignals.some((f) => f in d))) return { kind: "task", skill: briefSkillId };

  const words = view.texts.join(" ").toLowerCase();
  const candidates: { route: Route; keywords: string[] }[] = readSkills.map((s) => ({
    route: { kind: "read", skill: s.id },
    keywords: s.keywords,
  }));
  // Free times come just before contact: words about a call's times that tie with contact's are about the times.
  const contact = readSkills.findIndex((s) => s.id === "contact");
  if (booking) candidates.splice(contact, 0, { route: { kind: "free-times" }, keywords: freeTimesKeywords });
  let best: { route: Route; hits: number } | undefined;
  for (const { route, keywords } of candidates) {
    const hits = keywords.filter((k) => new RegExp(`\\b${k}\\b`).test(words)).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { route, hits };
  }
  return best?.route ?? { kind: "help" };
}

/**
 * A message as JSON, decoded exactly as the SDK will decode it for the version in use, so the HTTP gate and the
 * executor see the same parts: 1.0 through the SDK's own ProtoJSON decoder (a part with several members is the
 * first of text, raw, url, data), 0.3 as the compatibility layer reads it (by `kind`, whatever else the part holds).
 * Undefined when the SDK would refuse the message as malformed.
 */
export function viewOfJson(message: unknown, version: string): MessageView | undefined {
  if (!isObject(message) || !Array.isArray(message.parts) || !message.parts.every(isObject)) return undefined;
  if (!version.startsWith("0.")) return decoded(message);
  const view: MessageView = { texts: [], data: [], otherParts: 0 };
  if (typeof message.taskId === "string" && message.taskId) view.taskId = message.taskId;
  if (isObject(message.metadata) && "skillId" in message.metadata) view.skillId = message.metadata.skillId;
  for (const part of message.parts as Record<string, unknown>[]) {
    if (part.kind === "text") {
      // The compatibility layer reads a text part's text as a string: anything else is a malformed part.
      if (typeof part.text !== "string") return undefined;
      view.texts.push(part.text);
    } else if (part.kind === "data") view.data.push(legacyDataValue(part));
    else if (part.kind === "file") view.otherParts += 1;
    else return undefined;
  }
  return view;
}

/** A 1.0 message through the SDK's decoder, which throws on a field it cannot turn into a string (an object without one). */
function decoded(message: Record<string, unknown>): MessageView | undefined {
  try {
    return viewOfMessage(Message.fromJSON(message));
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** The 0.3 compatibility layer unwraps `{value}` from a data part flagged `data_part_compat` (a non-object payload). */
function legacyDataValue(part: Record<string, unknown>): unknown {
  const flagged = isObject(part.metadata) && part.metadata.data_part_compat === true;
  return flagged && isObject(part.data) && "value" in part.data ? part.data.value : part.data;
}

/** The SDK's message (ProtoJSON decoded). */
export function viewOfMessage(message: Message): MessageView {
  const view: MessageView = { texts: [], data: [], otherParts: 0 };
  if (message.taskId) view.taskId = message.taskId;
  if (message.metadata && "skillId" in message.metadata) view.skillId = message.metadata.skillId;
  for (const part of message.parts) {
    if (part.content?.$case === "text") view.texts.push(part.content.value);
    else if (part.content?.$case === "data") view.data.push(part.content.value);
    else view.otherParts += 1;
  }
  return view;
}

export const dataObjects = (view: MessageView) => view.data.filter(isObject);
