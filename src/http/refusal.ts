import type { ConditionName } from "./conditions.ts";

export interface RefusalOptions {
  /** What went wrong in this request; defaults to the condition's own sentence. */
  detail?: string;
  /** What to do next, when this case has something more specific than the condition's. */
  resolution?: string;
  headers?: Record<string, string>;
  /** Members a format adds to its body, such as `errors` for an invalid brief. */
  extensions?: Record<string, unknown>;
}

/**
 * A request refused for one of the conditions (conditions.ts). Anything in a door may throw it; the door renders it
 * in its own format (problem+json, an OAuth error, a JSON-RPC error). Internal failures are typed classes like this
 * one, never recognised by their message.
 */
export class Refusal extends Error {
  override name = "Refusal";
  readonly condition: ConditionName;
  readonly options: RefusalOptions;
  constructor(condition: ConditionName, options: RefusalOptions = {}) {
    super(options.detail ? `${condition}: ${options.detail}` : condition);
    this.condition = condition;
    this.options = options;
  }
}
