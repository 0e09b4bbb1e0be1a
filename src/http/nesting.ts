import { maxJsonDepth } from "./json-depth.ts";
import { Refusal } from "./refusal.ts";

/** Refuses a parsed JSON value nested deeper than maxJsonDepth (nested_too_deep), walking it without recursion. */
export function refuseDeepNesting(value: unknown): void {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > maxJsonDepth)
      throw new Refusal("nested_too_deep", { detail: `The JSON nests arrays and objects more than ${maxJsonDepth} levels deep.` });
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, depth + 1]);
  }
}
