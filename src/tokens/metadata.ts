import { absolute, oauthPaths, protectedResourceMetadataPath, protectedResourcePaths, type ProtectedResource, guideUrl } from "../paths.ts";

/**
 * The authorization server's public shape: scopes, resources and the discovery documents built from them and from
 * the paths in src/paths.ts. The static documents (Astro endpoints) and the functions both read this module, so they
 * cannot disagree.
 */
/** Every scope, with what it lets a client do in plain words (the consent screen and the developer page say this). */
export const scopes = {
  "svc:read": "Read the studio's public information",
  "svc:brief": "File a project brief for you: it creates a real lead, and a person answers by e-mail",
} as const;

export type Scope = keyof typeof scopes;
export const scopeNames = Object.keys(scopes) as Scope[];

/** What a private_key_jwt client may sign its assertion with (src/oauth/client-assertion.ts). */
export const clientAssertionAlgorithms = ["ES256", "RS256"] as const;
/** A client assertion's exp is at most this far ahead; the clock skew allowed either way; its length in characters. */
export const clientAssertionLimits = { maxLifetimeSeconds: 300, clockSkewSeconds: 30, maxLength: 4096 } as const;

/** Access tokens live one hour (spec: Limits); authorization codes one minute. */
/** What a registration's metadata may hold (RFC 7591), as the registration endpoint and its OpenAPI description say. */
export const clientMetadataLimits = { clientName: 100, redirectUris: 8 } as const;

export const accessTokenLifetimeSeconds = 3600;
export const authorizationCodeLifetimeSeconds = 60;

/** The protected resources (RFC 8707 resource indicators), named for people; their paths are in src/paths.ts. */
export const protectedResources = {
  origin: { path: protectedResourcePaths.origin, name: "public facts and project briefs (REST)" },
  mcp: { path: protectedResourcePaths.mcp, name: "MCP server" },
  a2a: { path: protectedResourcePaths.a2a, name: "A2A agent" },
} as const;

export const resourceIdentifier = (baseUrl: string, resource: ProtectedResource) => absolute(baseUrl, protectedResources[resource].path);

/** Every audience a token may carry; a token for any of them is accepted at all of them (spec: Resource indicator). */
export const resourceIdentifiers = (baseUrl: string) =>
  (Object.keys(protectedResources) as ProtectedResource[]).map((r) => resourceIdentifier(baseUrl, r));

export const protectedResourceMetadataUrl = (baseUrl: string, resource: ProtectedResource) =>
  absolute(baseUrl, protectedResourceMetadataPath(resource));

export const oauthDocumentationUrl = (baseUrl: string) => guideUrl(baseUrl, "oauth");

/** RFC 8414 authorization server metadata. The issuer is the base URL exactly (RFC 8414 §3.3 string comparison). */
export function authorizationServerMetadata(baseUrl: string) {
  const url = (path: string) => absolute(baseUrl, path);
  return {
    issuer: baseUrl,
    authorization_endpoint: url(oauthPaths.authorize),
    token_endpoint: url(oauthPaths.token),
    registration_endpoint: url(oauthPaths.register),
    jwks_uri: url(oauthPaths.jwks),
    scopes_supported: scopeNames,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "client_credentials"],
    // private_key_jwt is for client ID metadata documents that publish keys; registration offers the other two.
    token_endpoint_auth_methods_supported: ["client_secret_post", "none", "private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: [...clientAssertionAlgorithms],
    code_challenge_methods_supported: ["S256"],
    // RFC 9207: every authorization response carries iss.
    authorization_response_iss_parameter_supported: true,
    // draft-ietf-oauth-client-id-metadata-document: an https URL is accepted as a client_id.
    client_id_metadata_document_supported: true,
    service_documentation: oauthDocumentationUrl(baseUrl),
  };
}

/** RFC 9728 protected resource metadata for one of the resources. */
export function protectedResourceMetadata(baseUrl: string, resource: ProtectedResource) {
  return {
    resource: resourceIdentifier(baseUrl, resource),
    authorization_servers: [baseUrl],
    scopes_supported: scopeNames,
    bearer_methods_supported: ["header"],
    resource_name: protectedResources[resource].name,
    resource_documentation: oauthDocumentationUrl(baseUrl),
  };
}

/** Every discovery document built at build time, by its URL path (served from `<path>.json` by netlify.toml rewrites). */
export function discoveryDocuments(baseUrl: string): Record<string, object> {
  return {
    [oauthPaths.authorizationServerMetadata]: authorizationServerMetadata(baseUrl),
    ...Object.fromEntries(
      (Object.keys(protectedResources) as ProtectedResource[]).map((r) => [
        protectedResourceMetadataPath(r),
        protectedResourceMetadata(baseUrl, r),
      ]),
    ),
  };
}
