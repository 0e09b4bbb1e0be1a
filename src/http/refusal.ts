import { ConfigurationError } from "../config/env.ts";
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

/**
 * What went wrong, as the refusal a door answers: a Refusal as it is; a configuration error as `misconfigured`, and an
 * unexpected failure as an outage, each logged (the second with its stack) and never answered with its own words.
 */
export function asRefusal(error: unknown, log: (line: string) => void, where: string): Refusal {
  if (error instanceof Refusal) return error;
  if (error instanceof ConfigurationError) {
    log(`CONFIGURATION ERROR: ${error.message}`);
    return new Refusal("misconfigured");
  }
  log(`${where} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new Refusal("service_unavailable");
}
