import { conditionOf, conditions, type ConditionName } from "../http/conditions.ts";
export { problemAnchor } from "../http/formats.ts";

/**
 * The problem codes of the public API (RFC 9457), as the conditions table (src/http/conditions.ts) defines them: the
 * developer page, the OpenAPI document and the REST skill list these. Where several conditions share a REST code, the
 * first one's words describe it.
 */
export interface ProblemDefinition {
  status: number;
  title: string;
  /** When the problem occurs. */
  condition: string;
  /** What the client should do next. */
  resolution: string;
  /** Whether its answer carries Retry-After (a quota refused, or a condition the table gives a wait): src/http/formats.ts. */
  retryAfter: boolean;
}

type RestConditions = {
  [N in ConditionName]: (typeof conditions)[N] extends { problem: infer P extends string } ? P : never;
}[ConditionName];
export type ProblemCode = RestConditions;

export const problems = {} as Record<ProblemCode, ProblemDefinition>;
for (const name of Object.keys(conditions) as ConditionName[]) {
  const { problem, status, title, when, resolution, retryAfterSeconds } = conditionOf(name);
  if (problem && !(problem in problems))
    problems[problem as ProblemCode] = {
      status,
      title,
      condition: when,
      resolution,
      retryAfter: status === 429 || retryAfterSeconds !== undefined,
    };
}
