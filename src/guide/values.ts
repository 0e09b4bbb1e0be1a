import { A2A_ERROR_CODE } from "@a2a-js/sdk/errors";
import { securitySchemeNames } from "../a2a/card.ts";
import {
  listPageSize,
  maxA2ABodyBytes,
  maxIdLength,
  maxListedIds,
  maxIndexedTasks,
  maxStoredHistoryBytes,
  protocolVersions,
  taskLifetimeSeconds,
} from "../a2a/constants.ts";
import { a2aErrorCodes } from "../a2a/errors.ts";
import { minimumNoticeDays } from "../api/deprecations.ts";
import { idempotencyKeyMaxLength, maxBriefBytes } from "../briefs/limits.ts";
import { idempotencyTtlSeconds, repeatWindowSeconds } from "../briefs/store.ts";
import { contactTool } from "../contact/tool.ts";
import { aiCatalogMediaType } from "../discovery/api-catalog.ts";
import { contentSignalValue, contentUsageValue } from "../discovery/policy.ts";
import { perWindow, policies, type PolicyName } from "../limits/policies.ts";
import {
  batchRevision,
  listTtlSeconds,
  maxBatchMessages,
  maxMcpBodyBytes,
  requestStateTtlSeconds,
  resourceTtlSeconds,
  serverCardMediaType,
} from "../mcp/constants.ts";
import { legacyProtocolVersions, modernProtocolVersions } from "../mcp/versions.ts";
import { maxJsonDepth } from "../http/json-depth.ts";
import { metadataDocumentLimits } from "../oauth/cimd.ts";
import { clientKeySetLimits } from "../oauth/client-keys.ts";
import { jwksMaxAgeSeconds } from "../oauth/jwks.ts";
import {
  accessTokenLifetimeSeconds,
  authorizationCodeLifetimeSeconds,
  clientAssertionAlgorithms,
  clientAssertionLimits,
  resourceIdentifiers,
  clientMetadataLimits,
} from "../tokens/metadata.ts";
import {
  a2aPath,
  absolute,
  agentCardPath,
  aiCatalogPath,
  apiCatalogPath,
  briefsPath,
  bookingsPath,
  freeTimesPath,
  caseStudyResourcePath,
  markdownPath,
  mcpPath,
  oauthPaths,
  openApiPath,
  pagePaths,
  protectedResourceMetadataPath,
  resourcePaths,
  serverCardPath,
  serverCardWellKnownPath,
  llmsPath,
  robotsPath,
  registryServerJsonPath,
  skillsIndexPath,
} from "../paths.ts";
import type { Site } from "../site/model.ts";
import { siteValues } from "../site/placeholders.ts";
import { freeTimesLimits } from "../booking/schema.ts";

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A duration as the guide says it: "24 hours", "15 minutes", "180 days". */
export function durationInWords(seconds: number): string {
  if (seconds >= 2 * 86_400 && seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds >= 3600 && seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds >= 60 && seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

/** A size as the guide says it: "64 KiB". */
export const sizeInWords = (bytes: number) => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

const byPolicy = (say: (name: PolicyName) => string) =>
  Object.fromEntries((Object.keys(policies) as PolicyName[]).map((name) => [name, say(name)]));

/**
 * The words and numbers the guide's prose takes from the code, by kind and name: `{{limit:mcp}}` is the mcp quota,
 * `{{window:mcp}}` its window in words. Each value is plain text, the same in the page and in its twin.
 */
export function guideValues(site: Site) {
  const url = (path: string) => absolute(site.baseUrl, path);
  const a2aErrors: Record<string, number> = {
    ...Object.fromEntries(Object.entries(A2A_ERROR_CODE).map(([name, code]) => [name.toLowerCase(), code])),
    ...a2aErrorCodes(),
  };
  return {
    limit: byPolicy((name) => String(policies[name].quota)),
    window: byPolicy((name) => perWindow(policies[name].windowSeconds)),
    size: {
      "brief-body": sizeInWords(maxBriefBytes),
      "mcp-body": sizeInWords(maxMcpBodyBytes),
      "a2a-body": sizeInWords(maxA2ABodyBytes),
      "a2a-task-history": sizeInWords(maxStoredHistoryBytes),
      "client-metadata-document": sizeInWords(metadataDocumentLimits.maxBytes),
    },
    duration: {
      "access-token": durationInWords(accessTokenLifetimeSeconds),
      "authorization-code": durationInWords(authorizationCodeLifetimeSeconds),
      "client-metadata-fetch": durationInWords(metadataDocumentLimits.timeoutMs / 1000),
      "client-metadata-cache": durationInWords(metadataDocumentLimits.cacheSeconds),
      "client-metadata-cache-min": durationInWords(metadataDocumentLimits.minCacheSeconds),
      "client-metadata-cache-max": durationInWords(metadataDocumentLimits.maxCacheSeconds),
      "client-metadata-stale": durationInWords(metadataDocumentLimits.staleSeconds),
      "client-metadata-refusal": durationInWords(metadataDocumentLimits.refusalCacheSeconds),
      "client-assertion-lifetime": durationInWords(clientAssertionLimits.maxLifetimeSeconds),
      "client-assertion-skew": durationInWords(clientAssertionLimits.clockSkewSeconds),
      "client-keys-cache": durationInWords(clientKeySetLimits.cacheSeconds),
      "client-keys-refresh": durationInWords(clientKeySetLimits.refreshIntervalSeconds),
      "jwks-cache": durationInWords(jwksMaxAgeSeconds),
      "idempotency-key": durationInWords(idempotencyTtlSeconds),
      "repeat-window": durationInWords(repeatWindowSeconds),
      "a2a-task": durationInWords(taskLifetimeSeconds),
      "deprecation-notice": durationInWords(minimumNoticeDays * 86_400),
      "mcp-list-cache": durationInWords(listTtlSeconds),
      "mcp-resource-cache": durationInWords(resourceTtlSeconds),
      "mcp-confirmation": durationInWords(requestStateTtlSeconds),
      "booking-ahead": durationInWords(freeTimesLimits.aheadDays * 86_400),
      "free-times-span": durationInWords(freeTimesLimits.spanDays * 86_400),
    },
    length: {
      "idempotency-key": String(idempotencyKeyMaxLength),
      "a2a-list-page": String(listPageSize.default),
      "a2a-list-page-max": String(listPageSize.max),
      "a2a-listed-tasks": String(maxIndexedTasks),
      "a2a-id": String(maxIdLength),
      "a2a-listed-ids": String(maxListedIds),
      "json-depth": String(maxJsonDepth),
      "client-name": String(clientMetadataLimits.clientName),
      "mcp-batch": String(maxBatchMessages),
    },
    url: {
      "api-index": url(resourcePaths.index),
      company: url(resourcePaths.company),
      "case-study": url(caseStudyResourcePath("{id}")),
      briefs: url(briefsPath),
      "free-times": url(freeTimesPath),
      bookings: url(bookingsPath),
      openapi: url(openApiPath),
      "markdown-index": url(markdownPath(pagePaths.home)),
      "contact-page": url(pagePaths.contact),
      "offers-page": url(pagePaths.offers),
      "oauth-metadata": url(oauthPaths.authorizationServerMetadata),
      "resource-metadata-origin": url(protectedResourceMetadataPath("origin")),
      "resource-metadata-mcp": url(protectedResourceMetadataPath("mcp")),
      "resource-metadata-a2a": url(protectedResourceMetadataPath("a2a")),
      // The issuer exactly as the metadata names it (RFC 8414 §3.3), the audience a client assertion names.
      issuer: site.baseUrl,
      register: url(oauthPaths.register),
      token: url(oauthPaths.token),
      authorize: url(oauthPaths.authorize),
      jwks: url(oauthPaths.jwks),
      mcp: url(mcpPath),
      "server-card": url(serverCardPath),
      "server-card-well-known": url(serverCardWellKnownPath),
      a2a: url(a2aPath),
      "agent-card": url(agentCardPath),
      "ai-catalog": url(aiCatalogPath),
      "api-catalog": url(apiCatalogPath),
      "llms-txt": url(llmsPath),
      robots: url(robotsPath),
      "mcp-server-json": url(registryServerJsonPath),
      "skills-index": url(skillsIndexPath),
    },
    version: {
      mcp: modernProtocolVersions.join(", "),
      "mcp-2025": legacyProtocolVersions.join(", "),
      "mcp-batches": batchRevision,
      a2a: protocolVersions.join(" and "),
      "a2a-latest": protocolVersions[0],
    },
    list: {
      "resource-identifiers": resourceIdentifiers(site.baseUrl).join(", "),
      "a2a-security-schemes": Object.values(securitySchemeNames).join(", "),
      "client-assertion-algorithms": clientAssertionAlgorithms.join(", "),
    },
    ...siteValues(site.company),
    name: {
      "server-card-media-type": serverCardMediaType,
      "ai-catalog-media-type": aiCatalogMediaType,
      "content-signal": contentSignalValue,
      "content-usage": contentUsageValue,
      "webmcp-tool": contactTool.name,
    },
    "a2a-error": Object.fromEntries(Object.entries(a2aErrors).map(([name, code]) => [name, String(code)])),
  } satisfies Record<string, Record<string, string>>;
}
