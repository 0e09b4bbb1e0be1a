import { deprecations as liveDeprecations, type Deprecation } from "../api/deprecations.ts";
import { openApiDocument } from "../api/openapi.ts";
import { problemAnchor, problems, type ProblemCode } from "../api/problems.ts";

import { policyField } from "../limits/headers.ts";
import { perWindow, policies, type PolicyName, type QuotaPolicy } from "../limits/policies.ts";
import { metadataDocumentLimits } from "../oauth/cimd.ts";
import { accessTokenLifetimeSeconds, resourceIdentifiers, scopes } from "../oauth/metadata.ts";
import { caseStudyResourceSchema } from "../resources/case-studies.ts";
import { catalogIds, resourceCatalog } from "../resources/catalog.ts";
import { apiIndexSchema } from "../resources/index.ts";
import { fieldErrorSchema } from "../briefs/validate.ts";
import { maxBriefBytes } from "../briefs/limits.ts";
import { briefSchema } from "../briefs/schema.ts";
import { mcpGuide } from "./developers-mcp.ts";
import { fieldDocs } from "./schema-fields.ts";
import { securitySchemeNames } from "../a2a/card.ts";
import { a2aConditions, a2aProtocolErrors } from "../a2a/errors.ts";
import { conditionOf } from "../http/conditions.ts";
import { maxA2ABodyBytes, maxStoredHistoryBytes, protocolVersions, taskLifetimeSeconds } from "../a2a/constants.ts";
import { briefExamples, briefSkillDescription, briefSkillId, readSkillDescription, readSkills } from "../a2a/skills.ts";
import { offersResource } from "../resources/offers.ts";
import type { Site } from "./model.ts";
import {
  openApiPath,
  oauthPaths,
  protectedResourceMetadataPath,
  a2aPath,
  agentCardPath,
  absolute,
  caseStudyResourcePath,
  pagePaths,
  resourcePaths,
  mcpPath,
  briefsPath,
} from "../paths.ts";

/** What the developer page says, as data, so its HTML and its Markdown twin cannot disagree. */
export function developerGuide(site: Site, deprecations: readonly Deprecation[] = liveDeprecations) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const openapi = openApiDocument(site, deprecations);
  return {
    sections: [
      { id: "reading", title: "Reading the facts" },
      { id: "resources", title: "Resources" },
      { id: "markdown", title: "Markdown for every page" },
      { id: "oauth", title: "OAuth: getting a token" },
      { id: "briefs", title: "Filing a brief" },
      { id: "mcp", title: "MCP server" },
      { id: "a2a", title: "A2A agent" },
      { id: "errors", title: "Errors" },
      { id: "quota", title: "Quota" },
      { id: "versioning", title: "Versioning" },
      { id: "reference", title: "Endpoint reference" },
      { id: "fields", title: "Fields of each resource" },
    ],
    quotas: (Object.entries(policies) as [PolicyName, QuotaPolicy][]).map(([name, p]) => ({ name, ...p, header: policyField(name) })),
    quotaExample: [
      `RateLimit-Policy: ${policyField("public-api")}`,
      `RateLimit: "public-api";r=117;t=42`,
      "RateLimit-Limit: 120",
      "RateLimit-Remaining: 117",
      "RateLimit-Reset: 42",
    ].join("\n"),
    versioning: [
      "The major version is in the path: /api/v1.",
      "Adding a resource or a field is not breaking and ships without a version change; ignore fields you do not know.",
      "Removing or renaming one is breaking and ships under a new major path; the old path keeps working.",
      "A deprecated operation answers with a Deprecation header (RFC 9745, a date such as @1767225600) and a Sunset header (RFC 8594, the removal date, at least 180 days later), and a Link to this section; it is also listed here and marked in the OpenAPI document.",
    ],
    deprecations: deprecations.map((d) => ({
      operation: `${d.method} ${d.path}`,
      deprecated: d.deprecatedAt.toISOString().slice(0, 10),
      sunset: d.sunsetAt.toISOString().slice(0, 10),
      successor: d.successor,
    })),
    openApiUrl: url(openApiPath),
    endpoints: Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { summary?: string; responses?: Record<string, unknown>; deprecated?: boolean }>)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          summary: op.summary ?? "",
          responses: Object.keys(op.responses ?? {}).join(", "),
          deprecated: op.deprecated === true,
        })),
    ),
    readExample: `curl ${url(resourcePaths.company)}`,
    indexUrl: url(resourcePaths.index),
    resources: catalogIds.map((id) => ({
      id,
      url: url(resourcePaths[id]),
      description: resourceCatalog[id].description,
      fields: fieldDocs(resourceCatalog[id].schema),
    })),
    indexFields: fieldDocs(apiIndexSchema),
    caseStudyUrl: url(caseStudyResourcePath("{id}")),
    /** What the single case study adds to an entry of the list. */
    caseStudyExtraFields: fieldDocs(caseStudyResourceSchema).filter((f) => f.path === "story"),
    markdownExample: `curl -H 'Accept: text/markdown' ${url(pagePaths.offers)}`,
    markdownIndexUrl: url("/index.md"),
    oauth: oauthGuide(site.baseUrl),
    briefs: briefsGuide(site),
    mcp: mcpGuide(site),
    a2a: a2aGuide(site),
    problemFields: [
      ["type", "URI of this code's entry on this page"],
      ["title", "Short summary of the code"],
      ["status", "HTTP status"],
      ["detail", "What went wrong in this request"],
      ["instance", "The requested path"],
      ["code", "Stable code; safe to branch on"],
      ["resolution", "What to do next"],
      ["documentation_url", "This page's errors section"],
    ] as const,
    problems: (Object.entries(problems) as [ProblemCode, (typeof problems)[ProblemCode]][]).map(([code, p]) => ({
      code,
      anchor: problemAnchor(code),
      ...p,
    })),
  };
}

/** The OAuth section: the same sentences and samples in the HTML page and its Markdown twin. */
function oauthGuide(baseUrl: string) {
  const url = (path: string) => absolute(baseUrl, path);
  const registrations = policies["oauth-register"];
  const requests = policies.oauth;
  const fetches = policies["oauth-client-metadata"];
  const documents = metadataDocumentLimits;
  const loopback = "http://127.0.0.1:8765/callback";
  return {
    intro:
      "Reads need no token. Filing a brief needs an access token with the scope svc:brief, and anyone can get one: register a client, then ask for a token. There is no account, no approval and no payment; the identity is your client software, not a person.",
    metadataUrl: url(oauthPaths.authorizationServerMetadata),
    discovery: `Everything below is also published as authorization server metadata (RFC 8414) at ${url(oauthPaths.authorizationServerMetadata)}, and as protected resource metadata (RFC 9728) for the origin, /mcp and /a2a/v1 at ${url(protectedResourceMetadataPath("origin"))}, ${url(protectedResourceMetadataPath("mcp"))} and ${url(protectedResourceMetadataPath("a2a"))}.`,
    register: `Register once with a JSON POST to ${url(oauthPaths.register)} (RFC 7591). Keep the client_id and the client_secret: the secret is shown only once and stored only as a hash. Registrations never expire, so their number is bounded by the registration limit: ${registrations.quota} ${perWindow(registrations.windowSeconds)} per IP address. Register once and keep the client.`,
    registerExample: `curl -X POST ${url(oauthPaths.register)} \\\n  -H 'Content-Type: application/json' \\\n  -d '{"client_name":"My script","grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}'`,
    clientCredentials: "For a program acting on its own behalf: post the client's id and secret in the form body (client_secret_post).",
    clientCredentialsExample: `curl -X POST ${url(oauthPaths.token)} \\\n  -d grant_type=client_credentials -d client_id="$CLIENT_ID" -d client_secret="$CLIENT_SECRET" \\\n  -d scope=svc:brief -d resource=${url(mcpPath)}`,
    authorizationCode: `For an app a person uses: register with redirect_uris (https, or http on 127.0.0.1, [::1] or localhost, where any port matches) and, for an app that cannot keep a secret, token_endpoint_auth_method none. Send the person to ${url(oauthPaths.authorize)} with PKCE (code_challenge_method S256 is required); they see one consent screen naming your client as unverified, and the code comes back to your redirect URI with state and iss. Codes live 60 seconds and work once. Instead of registering, an app may use the https URL of its client metadata document as its client_id: a JSON object of at most ${documents.maxBytes / 1024} KiB, served within ${documents.timeoutMs / 1000} seconds without a redirect from a public address, whose client_id is its own URL exactly, with redirect_uris, token_endpoint_auth_method none and no secret. An accepted document is cached ${documents.cacheSeconds / 60} minutes. A refused one gets the same invalid_client answer whatever the reason (we do not say which rule failed, nor anything about the network behind the URL) and is remembered for ${documents.refusalCacheSeconds} seconds: check it against these rules yourself.`,
    authorizationCodeExample: `${url(oauthPaths.authorize)}?response_type=code&client_id=$CLIENT_ID\\\n  &redirect_uri=${encodeURIComponent(loopback)}&state=$STATE\\\n  &code_challenge=$CHALLENGE&code_challenge_method=S256&scope=svc:brief&resource=${encodeURIComponent(url(mcpPath))}\n\ncurl -X POST ${url(oauthPaths.token)} \\\n  -d grant_type=authorization_code -d code="$CODE" -d code_verifier="$VERIFIER" \\\n  -d redirect_uri=${loopback} -d client_id="$CLIENT_ID"`,
    scopes: Object.entries(scopes).map(
      ([name, meaning]) => [name, name === "svc:read" ? `${meaning}. Always granted.` : `${meaning}. Granted when asked for.`] as const,
    ),
    tokens: `A token is a JWT signed with ES256 (RFC 9068, typ at+jwt) and lives ${accessTokenLifetimeSeconds / 60} minutes; there is no refresh token and no revocation: ask for a new one. Its aud is the resource you named with the resource parameter (RFC 8707): one of ${resourceIdentifiers(baseUrl).join(", ")}, the origin when you name none. A token for any of them is accepted at all of them. Send it as Authorization: Bearer <token>.`,
    limits: `Every OAuth endpoint is counted per client IP, and every answer that was counted reports its quota with the same RateLimit headers as /api: ${requests.quota} requests ${perWindow(requests.windowSeconds)} to ${url(oauthPaths.token)} and ${url(oauthPaths.authorize)} together (policy "oauth": the consent screen and the consent form count alike), ${registrations.quota} registrations ${perWindow(registrations.windowSeconds)} (policy "oauth-register"), and ${fetches.quota} client metadata documents fetched ${perWindow(fetches.windowSeconds)} (policy "oauth-client-metadata"; a document answered from the cache, accepted or refused, costs nothing). A request that fetched a document lists both of its policies in RateLimit-Policy and RateLimit. Past a limit the answer is 429 with Retry-After: the error rate_limited at the token and registration endpoints, the error page at ${url(oauthPaths.authorize)}.`,
    errors: `Errors are JSON objects { error, error_description } with the codes of RFC 6749, RFC 7591 and RFC 8707 (invalid_request, invalid_client, invalid_grant, invalid_scope, invalid_target, invalid_redirect_uri, invalid_client_metadata, unsupported_grant_type ...); past any OAuth quota, rate_limited (429) with Retry-After, the same code at every endpoint (and the code /api, /mcp and /a2a/v1 use). When the store behind the server is unavailable, every endpoint answers temporarily_unavailable (503) with Retry-After: nothing was registered, issued or consented, so retry after that many seconds; while the deployment itself is misconfigured it answers server_error (503). At ${url(oauthPaths.authorize)}, a problem with the client or its redirect URI, and a request past the limit, is shown to the person as a page (never redirected; status 429 and Retry-After past the limit); any other is sent back to the redirect URI with error, state and iss.`,
    verifying: `Tokens can be verified offline against the key set at ${url(oauthPaths.jwks)}. Keys rotate: a new key is published there before it signs, and an old one stays until its tokens have expired. Fetch the key set by its URL, cache it for at most 5 minutes, and look a kid up again when you meet an unknown one, instead of pinning a key.`,
  };
}

function briefsGuide(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const quota = policies["briefs-per-client"];
  return {
    intro: `POST ${url(briefsPath)} files a project brief: a real lead that a person at ${site.company.name} answers by e-mail. File one only when the person you act for asked to be contacted and confirmed their name, company and e-mail. It needs a token with the scope svc:brief.`,
    example: `curl -X POST ${url(briefsPath)} \\\n  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\\n  -H "Idempotency-Key: $(uuidgen)" \\\n  -d '{"full_name":"Ada Lovelace","company_name":"Analytical Engines","work_email":"ada@engines.example","site_size":"${site.siteOffers[0]!.id}","dry_run":true}'`,
    fields: fieldDocs(briefSchema(site.siteOffers.map((o) => o.id) as [string, ...string[]])),
    rules: [
      "Text is trimmed and inner runs of spaces collapse; one-line fields refuse line breaks, control characters and invisible formatting characters (bidirectional overrides and isolates, zero-width spaces). Unknown fields are reported, not dropped.",
      `A filed brief answers 201 with lead_id, received_at, next_steps and the brief as recorded. The lead is stored before the answer, then e-mailed; if the e-mail fails it is retried until delivered, never twice. On a day with an unusual flood of briefs, the studio e-mails itself only so many leads one by one and holds the rest for a person to release: every brief is still accepted, recorded and answered exactly the same way, and nothing is lost; a held lead may simply be answered a little later.`,
      "dry_run: true authenticates and validates exactly as a real brief, then stops: 200 with dry_run: true, and nothing is filed or e-mailed. Use it to check a brief before the person confirms.",
      "Idempotency-Key (up to 255 printable characters, e.g. a UUID): a retry with the same key and body within 24 hours returns the same 201 (with Idempotent-Replayed: true) and files one lead; the same key with another brief is refused with idempotency_key_reused.",
      "The very same brief sent again by the same client within 15 minutes is collapsed into the first: 200 with status already_received and the original lead_id. Briefs are private to the client that filed them: a brief from another client is always a new lead, however much it resembles an earlier one, and no answer ever shows another client's brief.",
      `Bodies are at most ${maxBriefBytes / 1024} KB (payload_too_large). Each OAuth client may file ${quota.quota} briefs ${perWindow(quota.windowSeconds)} (brief_quota_exceeded, with its own RateLimit policy "briefs-per-client"); clients identified by a metadata document share one such quota per host of their client_id URL; dry runs and collapsed repeats do not count.`,
    ],
    errorFields: fieldDocs(fieldErrorSchema),
    errorExample: JSON.stringify(
      {
        code: "invalid_brief",
        status: 422,
        errors: [{ field: "/work_email", code: "invalid_format", message: "work_email must be an e-mail address such as ada@example.com" }],
      },
      null,
      2,
    ),
  };
}

/** The A2A section: generated from the skill table, the card's definitions and the agent's limits. */
function a2aGuide(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const quota = policies.a2a;
  const sample = { ...JSON.parse(briefExamples[0]!), skill: undefined };
  return {
    intro: `The same facts and the same brief, for A2A agents. The agent card is at ${url(agentCardPath)} (signed: a JWS over its RFC 8785 form with the key published at ${url(oauthPaths.jwks)}, ES256, kid in the protected header). The agent speaks the JSON-RPC binding at ${url(a2aPath)}, A2A ${protocolVersions.join(" and ")}: send the header A2A-Version: 1.0 (a request without it is answered as 0.3, as the protocol says). Streaming and push notifications are not offered.`,
    cardUrl: url(agentCardPath),
    methods: [
      ["SendMessage", "message/send", "Ask for facts (answered with a message) or file a brief (answered with a task)."],
      ["GetTask", "tasks/get", "Fetch a brief's task later, from any instance, with the token that made it."],
      ["CancelTask", "tasks/cancel", "Cancel a brief waiting for input; a finished task answers TaskNotCancelableError (-32002)."],
      ["ListTasks", "—", "Not offered: UnsupportedOperationError (-32004)."],
      [
        "SendStreamingMessage, SubscribeToTask",
        "message/stream, tasks/resubscribe",
        "Not offered (the card says streaming: false): UnsupportedOperationError (-32004).",
      ],
      ["Push notification configuration", "tasks/pushNotificationConfig/*", "Not offered: PushNotificationNotSupportedError (-32003)."],
      ["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard", "Not offered: UnsupportedOperationError (-32004)."],
    ] as const,
    skills: [
      ...readSkills.map((s) => ({ id: s.id, name: s.name, description: readSkillDescription(s), auth: "none" })),
      {
        id: briefSkillId,
        name: "File a project brief",
        description: briefSkillDescription({ offers: offersResource(site) }),
        auth: "svc:brief",
      },
    ],
    choosing: [
      "A message that continues a task (taskId) continues that brief.",
      'Otherwise the skill named in message.metadata.skillId, or as "skill" in the first data part.',
      "Otherwise a data part with full_name, company_name or work_email is a brief.",
      "Otherwise keywords in the text parts pick a read skill (prices → offers, case studies → case-studies, ...).",
      "Otherwise the answer lists the skills, with the API index as its data part.",
      "Reads answer with a message: a data part holding the same JSON as the REST read, and a short text part. Send text and data parts only; file parts are refused with ContentTypeNotSupportedError (-32005).",
    ],
    briefExample: `curl -X POST ${url(a2aPath)} \\\n  -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' -H "Authorization: Bearer $TOKEN" \\\n  -d '${JSON.stringify(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: {
            messageId: "m-1",
            role: "ROLE_USER",
            metadata: { skillId: briefSkillId },
            parts: [{ data: JSON.parse(JSON.stringify(sample)), mediaType: "application/json" }],
          },
        },
      },
    )}'`,
    brief: `The brief travels as one data part with the REST field names, dry_run included. Missing or invalid fields put the task in TASK_STATE_INPUT_REQUIRED: its status message names each field (a data part with the same errors array as the REST invalid_brief problem); reply in the same task (message.taskId) with a data part holding the corrected fields, and they are added to what you sent. A filed brief completes the task with a "receipt" artifact (lead_id, received_at, next_steps, the normalised brief), as POST /api/v1/briefs answers; a dry run completes it with a "dry-run" artifact. Tasks are kept ${taskLifetimeSeconds / 3600} hours with the newest ${maxStoredHistoryBytes / 1024} KiB of their history, and only the OAuth client that made a task can fetch it. Every message to this skill, valid or not, counts against the a2a-briefs quota (${policies["a2a-briefs"].quota} ${perWindow(policies["a2a-briefs"].windowSeconds)} per client); past it, HTTP 429 with Retry-After and a JSON-RPC error -32090.`,
    auth: `Reads need no token. A brief needs an access token with the scope svc:brief from either security scheme of the card (${Object.values(securitySchemeNames).join(", ")}); the same token works at /mcp. Without a token the call is refused with HTTP 401, with a token that lacks the scope with 403, both with WWW-Authenticate: Bearer ... scope="svc:brief", resource_metadata="${url(protectedResourceMetadataPath("a2a"))}" and a JSON-RPC error body.`,
    limits: `A quota of ${quota.quota} requests per ${quota.windowSeconds} seconds per client IP (policy "a2a", reported with the same RateLimit headers as /api); past it, HTTP 429 with Retry-After and a JSON-RPC error. Request bodies up to ${maxA2ABodyBytes / 1024} KiB; a larger one is refused with HTTP 413 and a JSON-RPC error.`,
    errors: [
      ...(Object.entries(a2aProtocolErrors) as [string, number][]),
      ...a2aConditions.map((name) => [name, conditionOf(name).rpc!] as [string, number]),
    ]
      .sort(([, a], [, b]) => b - a)
      .map(([name, code]) => [String(code), name] as const),
  };
}
