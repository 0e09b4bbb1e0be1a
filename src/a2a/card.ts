import { generateAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import { scopes } from "../tokens/metadata.ts";
import type { SigningKeys } from "../tokens/keys.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";

import { protocolVersions } from "./constants.ts";
import { bookingOfferedIn } from "../booking/names.ts";
import { bookingSkills } from "./booking-skills.ts";
import { briefExamples, briefSkillDescription, briefSkillId, readSkillDescription, readSkills } from "./skills.ts";
import { oauthPaths, absolute, a2aPath, a2aRestPath, apiBase, guidePagePaths } from "../paths.ts";

/**
 * The agent card (A2A 1.0, ProtoJSON: camelCase, one member per oneof), built at build time into
 * /.well-known/agent-card.json and by the function from the same definitions.
 */
/** The agent's own version (not the protocol's); raise it when skills change. */
export const agentVersion = "1.1.0";

export const securitySchemeNames = {
  clientCredentials: "oauth-client-credentials",
  authorizationCode: "oauth-authorization-code",
} as const;

export type AgentCardJson = Record<string, unknown> & { signatures?: { protected: string; signature: string }[] };

export type CardResources = Pick<PrebuiltResources, "offers" | "site" | "contact">;

export function agentCard(baseUrl: string, prebuilt: CardResources): AgentCardJson {
  const url = (path: string) => absolute(baseUrl, path);
  const studio = prebuilt.site.name;
  const metadataUrl = url(oauthPaths.authorizationServerMetadata);
  const scopeMap = { ...scopes };
  const requirement = (scope: string) => Object.values(securitySchemeNames).map((name) => ({ schemes: { [name]: { list: [scope] } } }));
  const booking = bookingOfferedIn(prebuilt);
  return {
    name: `${studio} agent`,
    description:
      `Public facts about ${studio}, a web-development studio (company, offers in USD, case studies, pages, contact: the same ` +
      `JSON as ${url(apiBase)}), and filing a project brief that a person answers by e-mail` +
      (booking ? ", and booking the intro call with a person at the studio (its free times, a booking, its cancellation)" : "") +
      `. Reads need no token; the brief${booking ? ", booking and cancelling need" : " needs"} an OAuth access token with the scope svc:brief. With a token, ListTasks lists the tasks made with your grant, the person's approval of your client (never another person's, even through the same client).` +
      (prebuilt.site.sample_content ? " The facts are sample content about a fictional studio." : ""),
    // JSON-RPC first (1.0, then 0.3 through the SDK's compatibility layer); HTTP+JSON speaks 1.0 only.
    supportedInterfaces: [
      ...protocolVersions.map((protocolVersion) => ({ url: url(a2aPath), protocolBinding: "JSONRPC", protocolVersion })),
      { url: url(a2aRestPath), protocolBinding: "HTTP+JSON", protocolVersion: protocolVersions[0] },
    ],
    provider: { organization: studio, url: baseUrl },
    version: agentVersion,
    documentationUrl: url(guidePagePaths.a2a),
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {
      [securitySchemeNames.clientCredentials]: {
        oauth2SecurityScheme: {
          description: `Self-serve client credentials: register at ${url(oauthPaths.register)}, then ask for a token with scope svc:brief.`,
          flows: { clientCredentials: { tokenUrl: url(oauthPaths.token), scopes: scopeMap } },
          oauth2MetadataUrl: metadataUrl,
        },
      },
      [securitySchemeNames.authorizationCode]: {
        oauth2SecurityScheme: {
          description: "Authorization code with PKCE (S256) for an app a person uses; one consent screen.",
          flows: {
            authorizationCode: {
              authorizationUrl: url(oauthPaths.authorize),
              tokenUrl: url(oauthPaths.token),
              scopes: scopeMap,
              pkceRequired: true,
            },
          },
          oauth2MetadataUrl: metadataUrl,
        },
      },
    },
    defaultInputModes: ["application/json", "text/plain"],
    defaultOutputModes: ["application/json", "text/plain"],
    skills: [
      ...readSkills.map((s) => ({ id: s.id, name: s.name, description: readSkillDescription(s), tags: s.tags, examples: s.examples })),
      {
        id: briefSkillId,
        name: "File a project brief",
        description: briefSkillDescription(prebuilt),
        tags: ["brief", "lead", "contact", "write"],
        examples: briefExamples,
        inputModes: ["application/json"],
        outputModes: ["application/json", "text/plain"],
        securityRequirements: requirement("svc:brief"),
      },
      ...(booking ? bookingSkills : []).map(({ scope, ...skill }) => ({
        ...skill,
        ...(scope
          ? { inputModes: ["application/json"], outputModes: ["application/json", "text/plain"], securityRequirements: requirement(scope) }
          : {}),
      })),
    ],
  };
}

/**
 * Signs the card (A2A 1.0 `signatures`): a JWS over the RFC 8785 canonical form of the card without `signatures`,
 * ES256 with the first (signing) key of OAUTH_SIGNING_KEYS, whose public part /.well-known/jwks.json publishes.
 */
export async function signAgentCard(card: AgentCardJson, keys: SigningKeys): Promise<AgentCardJson> {
  const sign = generateAgentCardSignature(keys.signing.key, { alg: "ES256", kid: keys.signing.kid, typ: "JOSE" });
  // The SDK canonicalises through AgentCard.fromJSON, so it takes the JSON form of the card.
  const signed = (await sign(card as unknown as AgentCard)) as unknown as AgentCardJson;
  return { ...card, signatures: signed.signatures!.map(({ protected: p, signature }) => ({ protected: p, signature })) };
}
