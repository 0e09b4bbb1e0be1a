/**
 * One path of each kind every door serves, for the methods no function can be handed (TRACE, TRACK, an unknown one).
 * /oauth/authorize is left out: it answers a wrong method with its error page, for browsers, where the front answers
 * TRACE in JSON.
 */
export const doorPaths = [
  "/api/v1/briefs",
  "/api/v1/offers",
  "/api/v1/case-studies/harborview-clinics",
  "/oauth/token",
  "/oauth/register",
  "/mcp",
  "/mcp/server-card",
  "/a2a/v1",
  "/a2a/v1/rest/tasks",
  "/a2a/v1/rest/message:send",
];
