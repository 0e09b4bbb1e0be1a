import { TaskState, type Part, type Task } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { bookingSkillIds } from "../booking/names.ts";
import { asRefusal } from "../http/refusal.ts";
import { fileBriefOperation, type BriefServices } from "../operations/briefs.ts";
import { callerOf } from "../operations/operation.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { bookingTask, freeTimesAnswer, type BookingWork } from "./booking.ts";
import { bookingOfferedIn } from "../booking/names.ts";
import { bookingSkills } from "./booking-skills.ts";
import { AuthenticatedCaller, decidedRoute, scopesOf, waitUntilOf } from "./caller.ts";
import { agentMessage, completed, dataPart, textPart, type TaskOutcome } from "./parts.ts";
import { operationTask, refusedTask } from "./operation-task.ts";
import { chooseSkill, dataObjects, viewOfMessage, writeScope, type Route, type TaskSkillId } from "./route.ts";
import { briefSkillId, readSkills } from "./skills.ts";
import { absolute, caseStudyResourcePath, freeTimesPath, resourcePaths } from "../paths.ts";

export interface ExecutorDeps {
  prebuilt: PrebuiltResources;
  /** Filing briefs; built on first use, so reads never touch the lead store's configuration. */
  briefs: () => BriefServices;
  /** Booking as the deployment runs it, built on first use; undefined where Cal.com is not configured. */
  booking: BookingWork["booking"];
}

/** Where a task keeps, for the next message in it, the valid fields of those before (a brief's, or a booking's). */
const carriedKeyOf = (skill: TaskSkillId) => (skill === briefSkillId ? "brief_fields" : "booking_fields");

/** The fields an input-required task carries to its next message. */
const carriedFields = (metadata: Record<string, unknown> | undefined, key: string): Record<string, unknown> => {
  const carried = metadata?.[key];
  return typeof carried === "object" && carried !== null && !Array.isArray(carried) ? (carried as Record<string, unknown>) : {};
};

/** The write a task was made for, as its metadata names it. */
const skillOfTask = (task: Task | undefined): TaskSkillId => {
  const skill: unknown = task?.metadata?.skill;
  return skill === bookingSkillIds.book || skill === bookingSkillIds.cancel ? skill : briefSkillId;
};

/** Reads answer with a message (data part + short text, no task stored); a write is a task kept in the task store. */
export function createAgentExecutor({ prebuilt, briefs, booking }: ExecutorDeps): AgentExecutor {
  const url = (path: string) => absolute(prebuilt.site.base_url, path);
  const offered = { booking: bookingOfferedIn(prebuilt) };
  const work: BookingWork = { booking, studio: prebuilt.site.name, freeTimesUrl: url(freeTimesPath) };

  function readAnswer(route: Extract<Route, { kind: "read" | "help" }>): Part[] {
    if (route.kind === "help") {
      const reads = [...readSkills, ...(offered.booking ? bookingSkills.filter((s) => !s.scope) : [])];
      const list = reads.map((s) => `${s.id} (${s.name.toLowerCase()})`).join(", ");
      const writes = offered.booking
        ? `${briefSkillId} (file a project brief), ${bookingSkillIds.book} and ${bookingSkillIds.cancel} ` +
          "(book or cancel the intro call), each needing a token"
        : `${briefSkillId} (file a project brief; needs a token)`;
      const opening = route.unknownSkill ? `There is no skill "${route.unknownSkill}".` : "I could not tell which facts you want.";
      return [
        textPart(
          `${opening} Skills: ${list}, and ${writes}. Name one in message.metadata.skillId ` +
            'or as {"skill": "<id>"} in a data part. The data part here is the API index.',
        ),
        dataPart(prebuilt.index),
      ];
    }
    const skill = readSkills.find((s) => s.id === route.skill)!;
    if (route.skill === "case-studies" && route.caseStudyId !== undefined) {
      const study = (prebuilt.case_study_details as Record<string, unknown>)[route.caseStudyId];
      if (study)
        return [
          textPart(`${prebuilt.site.name}: case study ${route.caseStudyId}, as GET ${url(caseStudyResourcePath(route.caseStudyId))}.`),
          dataPart(study),
        ];
      const ids = Object.keys(prebuilt.case_study_details).join(", ");
      return [
        textPart(`There is no case study "${route.caseStudyId}". These exist: ${ids}. The data part lists them.`),
        dataPart(prebuilt["case-studies"]),
      ];
    }
    return [
      textPart(`${prebuilt.site.name}: ${skill.name.toLowerCase()}, the same JSON as GET ${url(resourcePaths[route.skill])}.`),
      dataPart(prebuilt[route.skill]),
    ];
  }

  /** The free-times query: the first data part, without the skill's name. */
  function freeTimesQuery(context: RequestContext): Record<string, unknown> {
    const { skill: _skill, ...query } = dataObjects(viewOfMessage(context.userMessage))[0] ?? {};
    return query;
  }

  async function fileFrom(body: Record<string, unknown>, user: AuthenticatedCaller, context: RequestContext): Promise<TaskOutcome> {
    let services: BriefServices;
    try {
      services = briefs();
    } catch (error) {
      return refusedTask(asRefusal(error, console.error, "A2A brief"));
    }
    return operationTask(fileBriefOperation(services.schema), body, {
      caller: callerOf(user, waitUntilOf(context.context)),
      services,
      // A brief's data part has no idempotency_key: it is a field the brief does not have.
      takesKey: false,
      present(outcome) {
        if (outcome.kind === "dry_run") return completed("dry-run", outcome.result.message, outcome.result);
        const { receipt } = outcome;
        const text = `${outcome.kind === "repeat" ? "Already received" : "Filed"} as lead ${receipt.lead_id}. ${receipt.next_steps}`;
        return completed("receipt", text, receipt);
      },
    });
  }

  /** A write's work: the fields of this message added to those the task carries, then the skill's own. */
  function write(skill: TaskSkillId, context: RequestContext): Promise<TaskOutcome> {
    const user = context.context.user;
    if (!(user instanceof AuthenticatedCaller)) throw new Error("a write reached the executor without an authenticated caller");
    // A follow-up to an input-required task adds to the fields the task carries from its earlier messages.
    // Spread, never assigned: a member named __proto__ stays a member (an unknown field), as on REST, not a prototype.
    let body: Record<string, unknown> = { ...carriedFields(context.task?.metadata, carriedKeyOf(skill)) };
    for (const data of dataObjects(viewOfMessage(context.userMessage))) body = { ...body, ...data };
    delete body.skill;
    return skill === briefSkillId ? fileFrom(body, user, context) : bookingTask(skill, body, user, work);
  }

  const answer = (parts: Part[], context: RequestContext, bus: ExecutionEventBus) => {
    bus.publish(AgentEvent.message(agentMessage(parts, { contextId: context.contextId })));
    bus.finished();
  };

  return {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      // The HTTP gate's decision; without a gate, the same rule over the SDK's decoding (the SDK stamps every incoming
      // message with a task id, so only an existing task makes it a continuation).
      const route =
        decidedRoute(context.context) ?? chooseSkill({ ...viewOfMessage(context.userMessage), taskId: context.task?.id }, offered);
      if (route.kind === "free-times") return answer(await freeTimesAnswer(freeTimesQuery(context), work), context, bus);
      if (route.kind !== "task") return answer(readAnswer(route), context, bus);
      const skill = route.skill ?? skillOfTask(context.task);
      // The scope is checked where the work is done, whatever the HTTP layer decided; nothing is stored.
      if (!scopesOf(context.context).includes(writeScope)) {
        const what = skill === briefSkillId ? "Filing a brief" : "Booking or cancelling the intro call";
        const nothing = skill === briefSkillId ? "Nothing was filed." : "Nothing was booked or cancelled.";
        return answer([textPart(`${what} needs an access token with the scope ${writeScope}. ${nothing}`)], context, bus);
      }
      const ids = { taskId: context.taskId, contextId: context.contextId };
      const task: Task = context.task ?? {
        id: ids.taskId,
        contextId: ids.contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [context.userMessage],
        metadata: { skill },
      };
      bus.publish(AgentEvent.task(task));
      const outcome = await write(skill, context);
      if (outcome.artifact) {
        bus.publish(
          AgentEvent.artifactUpdate({
            ...ids,
            artifact: {
              artifactId: crypto.randomUUID(),
              name: outcome.artifact.name,
              description: "",
              parts: outcome.artifact.parts,
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      bus.publish(
        AgentEvent.statusUpdate({
          ...ids,
          status: { state: outcome.state, message: agentMessage(outcome.parts, ids), timestamp: new Date().toISOString() },
          metadata: { [carriedKeyOf(skill)]: outcome.carried ?? {} },
        }),
      );
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      // Writes finish within their request; a task waiting for input can be canceled (the handler does it when no
      // execution is live, which is always the case across function instances).
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: "",
          status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      );
      bus.finished();
    },
  };
}
