import type { JWK } from "jose";
import { accessTokenLifetimeSeconds } from "../tokens/metadata.ts";

/**
 * Key rotation in three deploys, so no verifier ever meets a token signed by a key it has not seen and no valid
 * token loses its key:
 *   1. publish: a new key is appended; it is published but does not sign yet.
 *   2. switch:  once every cached copy of the key set has it (jwks.json is cached 5 minutes; wait at least 10),
 *               the new key moves to the front and signs.
 *   3. retire:  once every token the old key signed has expired (1 hour, plus clock skew and the 5-minute cache;
 *               wait at least 70 minutes after the switch is live), the old key is removed.
 */
export type RotationStep = "publish" | "switch" | "retire";

export const rotationWaits = {
  /** After publish is live, before switch. */
  beforeSwitchMinutes: 10,
  /** After switch is live, before retire. */
  beforeRetireMinutes: Math.ceil(accessTokenLifetimeSeconds / 60) + 10,
} as const;

export class RotationRefused extends Error {
  override name = "RotationRefused";
}

export function rotateKeySet(keys: JWK[], step: RotationStep, next?: JWK): JWK[] {
  switch (step) {
    case "publish":
      if (keys.length !== 1)
        throw new RotationRefused("publish starts a rotation from a set of one key; finish the rotation in progress first");
      if (!next) throw new RotationRefused("publish needs the new key");
      return [...keys, next];
    case "switch":
      if (keys.length !== 2) throw new RotationRefused("switch needs the current key and the published next key (run publish first)");
      return [keys[1]!, keys[0]!];
    case "retire":
      if (keys.length !== 2) throw new RotationRefused("retire needs the signing key and the old key (run switch first)");
      return [keys[0]!];
  }
}
