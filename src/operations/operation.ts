import { z } from "zod";
import type { Channel } from "../briefs/lead.ts";
import { idempotencyKeyMaxLength, idempotencyKeyPattern } from "../briefs/limits.ts";
import { fieldErrorsOf, type FieldError } from "../briefs/validate.ts";
import type { ConditionName } from "../http/conditions.ts";
import { Refusal } from "../http/refusal.ts";
import type { Scope } from "../tokens/metadata.ts";

/**
 * A write as every door offers it (REST, MCP, A2A, the contact form): its name, the scope it needs, its one input schema,
 * and `run`, which answers a value or throws a Refusal. A door adapts it: it reads the input in its own way, checks
 * `scope` as its protocol does, calls `perform`, and writes the value or the refusal in its own format.
 */
export interface Operation<Schema extends z.ZodObject, Output, Services> {
  name: string;
  /** The OAuth scope a token needs for it; undefined for the contact form (first-party, no token). */
  scope: Scope | undefined;
  /** The one input schema: the doors publish it (MCP inputSchema, A2A skill, OpenAPI) and `perform` validates with it. */
  input: Schema;
  /** What its input is called in a field error ("brief", "booking"), and the condition a wrong input is refused for. */
  noun: string;
  invalid: ConditionName;
  /** Whether a retry may carry an idempotency key (REST: the Idempotency-Key header; MCP and A2A: `idempotency_key`). */
  idempotent: boolean;
  /** What must hold before its input is read, refused the same way whatever the input (booking: Cal.com configured). */
  ready?: (services: Services) => Promise<unknown>;
  run(input: z.output<Schema>, call: Call<Services>): Promise<Output>;
}

/** Who asks, as the door verified it. */
export interface Caller {
  /** The OAuth client calling, or `form:<ip>` for the contact form: recorded, for the studio. */
  clientId: string;
  /**
   * Whose write it is: the grant of the caller's token, or `form:<ip>` for the contact form. Idempotency keys, repeats,
   * quotas and who may see it again are the owner's, never the client's, which other people can get tokens for too.
   */
  owner: string;
  /** The address the owner counts against (src/http/bearer.ts `Caller.address`): its ceilings, and a share of e-mail. */
  address: string;
  /** The request's waitUntil: work after the answer (the first e-mail) runs there; without one it is awaited. */
  waitUntil?: (work: Promise<unknown>) => void;
}

export interface Call<Services> {
  caller: Caller;
  /** The door the call came through, recorded with what it writes. */
  channel: Channel;
  /** Validated by `perform`. */
  idempotencyKey?: string;
  services: Services;
}

/** The caller a verified token names: its grant is the owner. */
export const callerOf = (
  token: { clientId: string; grantId: string; address: string },
  waitUntil?: (work: Promise<unknown>) => void,
): Caller => ({ clientId: token.clientId, owner: token.grantId, address: token.address, ...(waitUntil ? { waitUntil } : {}) });

/** A read's caller: nobody in particular (a read needs no token, and counts nothing of its own). */
export const anyone: Caller = { clientId: "", owner: "", address: "" };

export const idempotencyKeyRule = `idempotency_key must be 1 to ${idempotencyKeyMaxLength} visible ASCII characters`;

/** An idempotency key: 1 to 255 visible ASCII characters, spaces allowed after the first. */
export const idempotencyKey = z
  .string({ error: "idempotency_key must be a string" })
  .min(1, idempotencyKeyRule)
  .max(idempotencyKeyMaxLength, idempotencyKeyRule)
  .regex(idempotencyKeyPattern, idempotencyKeyRule)
  .describe("Any unique string (a UUID, say) that you reuse when you retry the same write: it is made once.");

/**
 * The input a door takes in band where REST takes a header (MCP's arguments, A2A's data parts): the operation's input
 * with its idempotency key, described as the door says.
 */
export const withIdempotencyKey = <Schema extends z.ZodObject>(input: Schema, description?: string) =>
  input.extend({ idempotency_key: description ? idempotencyKey.optional().describe(description) : idempotencyKey.optional() });

/** Refused input, field by field: what every door's refusal of a body names. */
export function invalidInput(condition: ConditionName, errors: FieldError[]): Refusal {
  const n = errors.length;
  const detail = `${n} field${n === 1 ? " is" : "s are"} missing or invalid: ${errors.map((e) => e.message).join("; ")}.`;
  return new Refusal(condition, { detail, extensions: { errors } });
}

/** Runs an operation on input as a door received it: the key, then the input, checked; then its work. */
export async function perform<Schema extends z.ZodObject, Output, Services>(
  operation: Operation<Schema, Output, Services>,
  input: Record<string, unknown>,
  { caller, channel, idempotencyKey: key, services }: { caller: Caller; channel: Channel; idempotencyKey?: unknown; services: Services },
): Promise<Output> {
  await operation.ready?.(services);
  if (key !== undefined && !(operation.idempotent && idempotencyKey.safeParse(key).success)) throw new Refusal("invalid_idempotency_key");
  const parsed = operation.input.safeParse(input);
  if (!parsed.success) throw invalidInput(operation.invalid, fieldErrorsOf(parsed.error, input, operation.noun));
  return operation.run(parsed.data, { caller, channel, ...(typeof key === "string" ? { idempotencyKey: key } : {}), services });
}

/** Where the key travels among a call's arguments (MCP, A2A), a bad one is refused as the field it is. */
export const keyAsArgument = (error: unknown): unknown =>
  error instanceof Refusal && error.condition === "invalid_idempotency_key"
    ? new Refusal("invalid_idempotency_key", {
        detail: `${idempotencyKeyRule}.`,
        extensions: { errors: [{ field: "/idempotency_key", code: "invalid_format", message: idempotencyKeyRule }] },
      })
    : error;
