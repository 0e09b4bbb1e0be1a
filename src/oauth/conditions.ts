import type { ConditionName } from "../http/conditions.ts";

/** What /oauth refuses for, for its documentation: OAuth's own conditions, the consent page's, then every door's. */
export const oauthConditions = [
  "invalid_oauth_request",
  "pkce_required",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "invalid_target",
  "invalid_client_metadata",
  "client_metadata_too_large",
  "invalid_redirect_uri",
  "unknown_client_or_redirect_uri",
  "forbidden_origin",
  "consent_expired",
  "consent_answered",
  "payload_too_large",
  "method_not_allowed",
  "not_found",
  "rate_limited",
  "service_unavailable",
  "misconfigured",
] as const satisfies ConditionName[];
