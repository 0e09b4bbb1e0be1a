import { TaskState, type Part } from "@a2a-js/sdk";
import type { z } from "zod";
import type { FieldError } from "../briefs/validate.ts";
import { conditionOf } from "../http/conditions.ts";
import { refusalData, retryAfterOf } from "../http/formats.ts";
import { asRefusal, type Refusal } from "../http/refusal.ts";
import { keyAsArgument, perform, withIdempotencyKey, type Caller, type Operation } from "../operations/operation.ts";
import { dataPart, textPart, type TaskOutcome } from "./parts.ts";

/**
 * A task skill over its operation (src/operations/): the data parts are its input (with `idempotency_key` where the skill
 * takes one), the value is what `present` makes of it, and any refusal is the task outcome the conditions table says.
 */
export async function operationTask<Schema extends z.ZodObject, Output, Services>(
  operation: Operation<Schema, Output, Services>,
  body: Record<string, unknown>,
  {
    caller,
    services,
    takesKey,
    present,
  }: { caller: Caller; services: Services; takesKey: boolean; present: (value: Output) => TaskOutcome },
): Promise<TaskOutcome> {
  const { idempotency_key: key, ...fields } = body;
  const input = takesKey ? fields : body;
  try {
    return present(await perform(operation, input, { caller, channel: "a2a", idempotencyKey: takesKey ? key : undefined, services }));
  } catch (error) {
    const refusal = keyAsArgument(asRefusal(error, console.error, `A2A ${operation.name}`)) as Refusal;
    // What the task keeps for a reply: the fields valid on their own, the idempotency_key among them.
    const kept = takesKey ? withIdempotencyKey(operation.input) : operation.input;
    return refusedTask(refusal, () => validFields(kept, body));
  }
}

/**
 * A refused skill as A2A answers it, for every skill: in words (what happened, what to do, when to retry after an
 * outage, and what a reply in the task can mend it with) and as data (`refusalData`: the REST problem's code, its
 * members, retry_after).
 */
export function refusalParts(refusal: Refusal, reply?: string): Part[] {
  const condition = conditionOf(refusal.condition);
  const retryAfter = retryAfterOf(refusal);
  const words = [
    refusal.options.detail ?? condition.when,
    refusal.options.resolution,
    condition.status === 503 && retryAfter ? `Retry in ${retryAfter} seconds.` : undefined,
    reply,
  ];
  return [textPart(words.filter(Boolean).join(" ")), dataPart(refusalData(refusal))];
}

/**
 * How a task ends when its skill is refused, as the conditions table says (`task`): input-required, keeping for the
 * reply the fields of `valid()` the refusal does not name (a taken start is what the reply must replace); rejected; or
 * failed.
 */
export function refusedTask(refusal: Refusal, valid: () => Record<string, unknown> = () => ({})): TaskOutcome {
  const task = conditionOf(refusal.condition).task;
  if (task?.state !== "input-required")
    return { state: task ? TaskState.TASK_STATE_REJECTED : TaskState.TASK_STATE_FAILED, parts: refusalParts(refusal) };
  const named = new Set(((refusal.options.extensions?.errors ?? []) as FieldError[]).map((error) => error.field));
  const carried = Object.fromEntries(Object.entries(valid()).filter(([name]) => !named.has(`/${name}`)));
  return { state: TaskState.TASK_STATE_INPUT_REQUIRED, parts: refusalParts(refusal, task.reply), carried };
}

/**
 * The members of `body` that are valid on their own against `schema`, what a task waiting for a reply may keep: so what
 * it stores is bounded by the schema's limits.
 */
export const validFields = (schema: z.ZodObject, body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(schema.shape)
      .filter(([name, field]) => Object.hasOwn(body, name) && field.safeParse(body[name]).success)
      .map(([name]) => [name, body[name]]),
  );
