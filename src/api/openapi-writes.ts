import { z } from "zod";
import { maxBriefBytes } from "../briefs/limits.ts";
import { idempotencyKey } from "../operations/operation.ts";
import { dryRunSchema, receiptSchema } from "../briefs/receipt.ts";
import { briefSchema } from "../briefs/schema.ts";
import { idempotencyTtlSeconds, repeatWindowSeconds } from "../briefs/store.ts";
import { fieldErrorSchema } from "../briefs/validate.ts";
import { inWords, perWindow, policies, quotaInWords } from "../limits/policies.ts";
import {
  accessTokenLifetimeSeconds,
  clientAssertionAlgorithms,
  clientAssertionLimits,
  clientMetadataLimits,
  scopes,
} from "../tokens/metadata.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { siteSizeIds } from "../resources/prebuilt.ts";

import { problems, type ProblemCode } from "./problems.ts";
import { schemaObject } from "./schema-object.ts";
import { oauthPaths } from "../paths.ts";
import { fileBriefOperation, pascal } from "../resources/operations.ts";

/** The parts of the OpenAPI document about writes: the brief, and the OAuth endpoints that issue its token. */
const ref = (kind: "schemas" | "responses" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The problems whose body carries more than RFC 9457's members: the field errors, or a refused time's free times. */
const problemSchemas: Partial<Record<ProblemCode, string>> = {
  invalid_brief: "FieldErrorsProblem",
  invalid_booking: "FieldErrorsProblem",
  invalid_query: "FieldErrorsProblem",
  slot_taken: "SlotTakenProblem",
};

/** The schema of one problem's body, or of any of a group's (a status several problems share). */
export function problemSchemaRef(codes: ProblemCode[]) {
  const named = [...new Set(codes.map((code) => problemSchemas[code] ?? "Problem"))];
  // anyOf: every special problem is a Problem too (its members extend it), so more than one may match.
  return named.length === 1 ? ref("schemas", named[0]!) : { anyOf: named.map((name) => ref("schemas", name)) };
}

/** Problem responses by status: a code alone at its status is its response component; a shared status lists them all. */
export function problemsByStatus(codes: ProblemCode[], headers: Record<string, unknown>) {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(problems[code].status, [...(byStatus.get(problems[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      String(status),
      group.length === 1
        ? ref("responses", pascal(group[0]!))
        : {
            description: group.map((c) => `\`${c}\`: ${problems[c].condition}`).join(" "),
            headers: group.some((c) => problems[c].retryAfter) ? { ...headers, "Retry-After": ref("headers", "Retry-After") } : headers,
            content: {
              "application/problem+json": { schema: problemSchemaRef(group) },
            },
          },
    ]),
  );
}

export function writeComponents(prebuilt: Pick<PrebuiltResources, "offers">, base: string) {
  const brief = briefSchema(siteSizeIds(prebuilt));
  return {
    schemas: {
      Brief: schemaObject(brief, "input"),
      BriefReceipt: schemaObject(receiptSchema(brief), "output"),
      DryRunResult: schemaObject(dryRunSchema(brief), "output"),
      FieldError: schemaObject(fieldErrorSchema, "output"),
      FieldErrorsProblem: {
        description: "A problem that names each offending field in `errors` (invalid_brief, invalid_booking, invalid_query).",
        allOf: [
          ref("schemas", "Problem"),
          { type: "object", required: ["errors"], properties: { errors: { type: "array", items: ref("schemas", "FieldError") } } },
        ],
      },
      ClientRegistration: {
        type: "object",
        description: "RFC 7591 client metadata. Anonymous and self-serve; registrations never expire.",
        properties: {
          client_name: {
            type: "string",
            maxLength: clientMetadataLimits.clientName,
            description: "Shown on the consent screen, marked unverified.",
          },
          redirect_uris: {
            type: "array",
            maxItems: clientMetadataLimits.redirectUris,
            items: { type: "string", format: "uri" },
            description: "Absolute https URIs, or http on a loopback host (any port, RFC 8252); required for authorization_code.",
          },
          grant_types: { type: "array", items: { enum: ["authorization_code", "client_credentials"] }, default: ["authorization_code"] },
          token_endpoint_auth_method: {
            enum: ["client_secret_post", "none"],
            default: "client_secret_post",
            description: "`none` only with authorization_code (a public client with PKCE).",
          },
        },
      },
      RegisteredClient: {
        type: "object",
        // client_secret_expires_at comes with a secret (RFC 7591 §3.2.1): a public client gets none.
        required: ["client_id", "client_id_issued_at", "grant_types", "token_endpoint_auth_method"],
        properties: {
          client_id: { type: "string" },
          client_secret: { type: "string", description: "Only for client_secret_post; shown once, stored only as a hash." },
          client_id_issued_at: { type: "integer" },
          client_secret_expires_at: { const: 0, description: "With a client_secret: 0, secrets do not expire." },
          client_name: { type: "string" },
          redirect_uris: { type: "array", items: { type: "string" } },
          grant_types: { type: "array", items: { type: "string" } },
          response_types: { type: "array", items: { type: "string" } },
          token_endpoint_auth_method: { type: "string" },
        },
      },
      TokenRequest: {
        type: "object",
        required: ["grant_type"],
        properties: {
          grant_type: { enum: ["client_credentials", "authorization_code"] },
          client_id: { type: "string", description: "Required, except with a client_assertion (then it must equal the assertion's sub)." },
          client_secret: { type: "string", description: "For confidential clients (client_secret_post)." },
          client_assertion_type: {
            const: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            description: "private_key_jwt (RFC 7523), for client metadata documents that declare it.",
          },
          client_assertion: {
            type: "string",
            description: `A JWT signed with ${clientAssertionAlgorithms.join(" or ")}: iss and sub the client_id, aud the issuer (or the token endpoint) as a single string, never an array (invalid_client), exp at most ${clientAssertionLimits.maxLifetimeSeconds} s ahead, a single-use jti.`,
          },
          scope: { type: "string", description: "Space-separated: svc:read (always granted) and svc:brief." },
          resource: {
            type: "string",
            format: "uri",
            description: `RFC 8707: ${base}/mcp, ${base}/a2a/v1 or ${base}; a token for any is accepted at all three.`,
          },
          code: { type: "string", description: "authorization_code only." },
          redirect_uri: { type: "string", description: "authorization_code only; exactly as in the authorization request." },
          code_verifier: { type: "string", description: "authorization_code only; the PKCE verifier (S256)." },
        },
      },
      TokenResponse: {
        type: "object",
        required: ["access_token", "token_type", "expires_in", "scope"],
        properties: {
          access_token: { type: "string", description: "An ES256 JWT (RFC 9068), verifiable against /.well-known/jwks.json." },
          token_type: { const: "Bearer" },
          expires_in: { const: accessTokenLifetimeSeconds },
          scope: { type: "string" },
        },
      },
      OAuthError: {
        type: "object",
        required: ["error"],
        properties: {
          error: { type: "string", description: "RFC 6749 §5.2, RFC 7591 §3.2.2 or RFC 8707 §2 error code." },
          error_description: { type: "string" },
        },
      },
    },
    securitySchemes: {
      oauth2: {
        type: "oauth2",
        description: "Self-serve and anonymous: register a client at /oauth/register, then get a token. No approval, no payment.",
        flows: {
          clientCredentials: { tokenUrl: `${base}${oauthPaths.token}`, scopes },
          authorizationCode: { authorizationUrl: `${base}${oauthPaths.authorize}`, tokenUrl: `${base}${oauthPaths.token}`, scopes },
        },
      },
    },
  };
}

export function writePaths(quotaHeaders: Record<string, unknown>) {
  const oauthError = (description: string) => ({ description, content: { "application/json": { schema: ref("schemas", "OAuthError") } } });
  const rateLimited = <T extends object>(response: T) => ({ ...response, headers: { "Retry-After": ref("headers", "Retry-After") } });
  const unavailable = rateLimited(oauthError("temporarily_unavailable: a store it depends on did not answer. See Retry-After."));
  const { "oauth-register": registrations, "oauth-client-metadata": fetches, "briefs-per-grant": briefQuota } = policies;
  return {
    [fileBriefOperation.path]: {
      post: {
        operationId: fileBriefOperation.operationId,
        summary: "File a project brief: it creates a real lead that a person answers by e-mail",
        description:
          "Call it only when the person you act for asked to be contacted and confirmed their name, company and e-mail. With `dry_run: true` the brief is authenticated and validated exactly as a real one, then nothing is filed and nobody is e-mailed. " +
          `Bodies are at most ${maxBriefBytes / 1024} KB. Each grant (one person's approval of a client, or a client_credentials client) may file ${briefQuota.quota} briefs ${perWindow(briefQuota.windowSeconds)} (policy "briefs-per-grant"; dry runs and collapsed repeats do not count): the people who use one client are counted apart.`,
        tags: ["Briefs"],
        security: [{ oauth2: [...fileBriefOperation.scopes] }],
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: `Retrying with the same key and body within ${inWords(idempotencyTtlSeconds)} returns the same response and files one lead; the same key with another body is refused.`,
            schema: schemaObject(idempotencyKey, "input"),
          },
        ],
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "Brief") } } },
        responses: {
          "200": {
            description: `A dry run (\`dry_run: true\`), or an exact repeat of a brief this client filed in the last ${inWords(repeatWindowSeconds)} (\`status: already_received\`).`,
            headers: quotaHeaders,
            content: { "application/json": { schema: { oneOf: [ref("schemas", "DryRunResult"), ref("schemas", "BriefReceipt")] } } },
          },
          "201": {
            description:
              "Filed: recorded, then e-mailed to the studio. A replay of an Idempotency-Key carries `Idempotent-Replayed: true`.",
            headers: quotaHeaders,
            content: { "application/json": { schema: ref("schemas", "BriefReceipt") } },
          },
          ...problemsByStatus(
            [
              "invalid_json",
              "invalid_idempotency_key",
              "invalid_token",
              "insufficient_scope",
              "payload_too_large",
              "invalid_brief",
              "idempotency_key_reused",
              "rate_limited",
              "brief_quota_exceeded",
              "service_unavailable",
            ],
            quotaHeaders,
          ),
        },
      },
    },
    [oauthPaths.register]: {
      post: {
        operationId: "registerClient",
        summary: "Register an OAuth client (RFC 7591), anonymously",
        description: `Anyone may register: no account, no approval. An app with a stable https URL may skip this and use the URL of a client metadata document it publishes as its client_id. Registrations never expire, so at most ${registrations.quota} are taken ${perWindow(registrations.windowSeconds)} from one IP address (policy "oauth-register").`,
        tags: ["OAuth"],
        security: [],
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "ClientRegistration") } } },
        responses: {
          "201": { description: "Registered.", content: { "application/json": { schema: ref("schemas", "RegisteredClient") } } },
          "400": oauthError("invalid_redirect_uri or invalid_client_metadata."),
          "413": oauthError("The body is too large."),
          "429": rateLimited(
            oauthError(
              `rate_limited: more than ${registrations.quota} registrations ${perWindow(registrations.windowSeconds)} from this IP address (policy "oauth-register"; registrations never expire, this bounds them). See Retry-After.`,
            ),
          ),
          "503": unavailable,
        },
      },
    },
    [oauthPaths.token]: {
      post: {
        operationId: "issueToken",
        summary: "Issue an access token (client_credentials, or authorization_code with PKCE)",
        description: `client_credentials for a program acting on its own behalf (client_secret_post, or private_key_jwt for a client metadata document that declares it); authorization_code with the PKCE verifier for a person's app, once they approved it on the consent screen at ${oauthPaths.authorize}. No refresh tokens are issued: ask for a new token when one expires. Counted per grant or client (policy "oauth-token").`,
        tags: ["OAuth"],
        security: [],
        requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: ref("schemas", "TokenRequest") } } },
        responses: {
          "200": {
            description: `A token that lives ${inWords(accessTokenLifetimeSeconds)}. \`Cache-Control: no-store\`.`,
            content: { "application/json": { schema: ref("schemas", "TokenResponse") } },
          },
          "400": oauthError(
            "invalid_request, invalid_grant, invalid_scope, invalid_target, unsupported_grant_type or unauthorized_client.",
          ),
          "401": oauthError("invalid_client, with WWW-Authenticate."),
          "413": oauthError("invalid_request: the form is too large."),
          "429": rateLimited(oauthError(`rate_limited: more than ${quotaInWords("oauth-token")}. See Retry-After.`)),
          "503": unavailable,
        },
      },
    },
    [oauthPaths.authorize]: {
      get: {
        operationId: "authorize",
        summary: "The consent screen of the authorization code flow (PKCE S256 required)",
        description:
          "Shows the person which client asks, for which scopes and where it returns. Only their decision, the screen's form posted to this URL, goes back to the redirect URI; every problem found before it is an error page, never a redirect.",
        tags: ["OAuth"],
        security: [],
        parameters: [
          "response_type",
          "client_id",
          "redirect_uri",
          "code_challenge",
          "code_challenge_method",
          "state",
          "scope",
          "resource",
        ].map((name) => ({
          name,
          in: "query",
          required: ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method"].includes(name),
          schema: { type: "string" },
        })),
        responses: {
          "200": {
            description:
              "One consent screen naming the client (unverified unless a metadata document's host vouches for it), where it returns and the scopes. The person's own decision, the screen's form posted to this URL, is the only answer that goes back to the redirect URI: 303 with `code` (Approve) or `error=access_denied` (Deny), with `state` and `iss` (RFC 9207).",
            content: { "text/html": {} },
          },
          "400": {
            description:
              "Every problem found before the person has seen the consent screen: no or an unknown client_id, a redirect_uri the client did not register or that today's rules refuse (registered before them), response_type (unsupported_response_type), the client's grants (unauthorized_client), PKCE (invalid_request), scope (invalid_scope) or resource (invalid_target). An error page naming the error code, never a redirect (RFC 9700 §4.11.2: anyone can register any redirect URI, so none is redirected to unseen).",
            content: { "text/html": {} },
          },
          "429": rateLimited({
            description: `The error page, never a redirect: more than ${quotaInWords("oauth")}, or more than ${fetches.quota} client metadata documents fetched ${perWindow(fetches.windowSeconds)} for this IP address (policy "oauth-client-metadata"; a cached document costs nothing).`,
            content: { "text/html": {} },
          }),
        },
      },
    },
  };
}
