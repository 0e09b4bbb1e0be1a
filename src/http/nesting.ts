import { Refusal } from "./refusal.ts";

/**
 * The deepest nesting of arrays and objects any door accepts in a JSON body. The deepest request of this API (an A2A
 * message with a brief in a data part, a 2026-07-28 MCP call with its `_meta` and a form's answer) nests under 10 levels;
 * 32 leaves room for a client's metadata. Deeper bodies fit in the size limits (`[` is one byte a level) and would reach
 * code that walks them recursively (the SDKs' decoders, a digest of a call's arguments), which a deep enough one
 * overflows: they are refused at the gate instead.
 */
export const maxJsonDepth = 32;

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
