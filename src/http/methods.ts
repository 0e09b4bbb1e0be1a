import type { DoorContext } from "./context.ts";
import { Refusal, type RefusalOptions } from "./refusal.ts";

/** Every door's 405: its Allow names the methods the path's route is registered with (`routeMethods` in paths.ts). */
export const methodNotAllowed = (allow: readonly string[], options: Omit<RefusalOptions, "headers"> = {}) =>
  new Refusal("method_not_allowed", { ...options, headers: { Allow: allow.join(", ") } });

/** The handler after a path's route, for every other method: 405 with Allow: `allow`, `detail` saying what to send. */
export const refuseOtherMethods =
  (allow: readonly string[], detail: string | ((c: DoorContext) => string)) =>
  (c: DoorContext): never => {
    throw methodNotAllowed(allow, { detail: typeof detail === "string" ? detail : detail(c) });
  };
