import { ConfigurationError } from "../config/env.ts";
import { importSigningKeys, signingKeysVariable } from "../tokens/keys.ts";
import { agentCard, signAgentCard, type CardResources } from "./card.ts";

/**
 * The card as the build publishes it. Signed when the build sees OAUTH_SIGNING_KEYS (Netlify gives builds the site's
 * variables; the local runtime passes its key set). A Netlify build without it fails, as a deploy without keys
 * could not issue tokens either; elsewhere (a plain `npm run build`) the card is unsigned, with a warning.
 */
export async function builtAgentCard(
  baseUrl: string,
  prebuilt: CardResources,
  env: Record<string, string | undefined>,
  warn: (line: string) => void = console.warn,
) {
  const card = agentCard(baseUrl, prebuilt);
  const keys = env[signingKeysVariable];
  if (!keys) {
    if (env.NETLIFY === "true")
      throw new ConfigurationError(`${signingKeysVariable} is not set for the build: the agent card cannot be signed.`);
    warn(`${signingKeysVariable} is not set: /.well-known/agent-card.json is built without a signature.`);
    return card;
  }
  return signAgentCard(card, await importSigningKeys(keys));
}
