import { maxJsonDepth } from "./json-depth.ts";
import { Refusal } from "./refusal.ts";

/** Whether a parsed JSON value nests arrays and objects deeper than maxJsonDepth, walked without recursion. */
export function nestsTooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > maxJsonDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

export const tooDeepDetail = `The JSON nests arrays and objects more than ${maxJsonDepth} levels deep.`;

/** Refuses a parsed JSON value nested deeper than maxJsonDepth (nested_too_deep). */
export function refuseDeepNesting(value: unknown): void {
  if (nestsTooDeep(value)) throw new Refusal("nested_too_deep", { detail: tooDeepDetail });
}
