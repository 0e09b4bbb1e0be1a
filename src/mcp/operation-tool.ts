import type { z } from "zod";
import { asRefusal, Refusal } from "../http/refusal.ts";
import { anyone, callerOf, keyAsArgument, perform, type Operation } from "../operations/operation.ts";
import { asksByForm, confirmationKey, confirmByForm, type Confirmation } from "./confirmation.ts";
import { toolError, type Caller, type ToolCall, type ToolResult } from "./tool.ts";

/**
 * A write tool over its operation (src/operations/): its arguments are the operation's input with `idempotency_key`,
 * the operation's scope is checked, and what the operation answers or refuses is handed back for the tool to word.
 */

/** The operation's scope, checked on the tool as on the HTTP layer, so the tool is safe on its own. */
export const scopeRefused = (caller: Caller | undefined, scope: string | undefined, what: string, nothing: string) =>
  scope === undefined || caller?.scopes.includes(scope)
    ? undefined
    : toolError(`${what} needs an access token with the scope ${scope}. ${nothing}`);

/**
 * Performs the operation for the caller: its value, or its refusal (a bad idempotency_key named as the argument it is, an
 * unexpected failure as an outage, logged), for the tool to word as an isError result.
 */
export async function performedFor<Schema extends z.ZodObject, Output, Services>(
  operation: Operation<Schema, Output, Services>,
  body: Record<string, unknown>,
  caller: Caller | undefined,
  services: Services,
  key?: unknown,
): Promise<Output | Refusal> {
  try {
    const who = caller ? callerOf(caller, caller.waitUntil) : anyone;
    const call = { caller: who, channel: "mcp", idempotencyKey: key, services } as const;
    return await perform(operation, body, call);
  } catch (error) {
    return keyAsArgument(asRefusal(error, console.error, `MCP ${operation.name}`)) as Refusal;
  }
}

/**
 * A write the person confirms first where their client shows forms (2026-07-28; never for a dry run): the accepted
 * answer is written once, under the call's idempotency key or else the form's own, and another answer to a form whose
 * write was made is `reused`. Elsewhere the write is made as called. `answer` words what was written (`byForm`: the
 * form's key made it).
 */
export async function writeConfirmed<F extends string, R>(
  {
    spec,
    args,
    body,
    call,
    reused,
  }: {
    /** The form and its checks, made only where the person is asked. */
    spec: () => Promise<Confirmation<F>>;
    args: Record<string, unknown>;
    body: Record<string, unknown>;
    call: ToolCall;
    reused: string;
  },
  write: (body: Record<string, unknown>, key: unknown) => Promise<R | Refusal>,
  answer: (result: R | Refusal, confirmed: boolean, byForm: boolean) => ToolResult,
): Promise<ToolResult> {
  const key = args.idempotency_key;
  if (!(call.rounds && asksByForm(call.clientCapabilities) && body.dry_run !== true)) return answer(await write(body, key), false, false);
  const asked = await confirmByForm(await spec(), args, body, call.rounds);
  if ("answer" in asked) return asked.answer;
  const byForm = key === undefined;
  const result = await write({ ...body, ...asked.confirmed }, byForm ? confirmationKey(asked.form) : key);
  if (byForm && result instanceof Refusal && result.condition === "idempotency_key_reused") return toolError(reused);
  return answer(result, true, byForm);
}
