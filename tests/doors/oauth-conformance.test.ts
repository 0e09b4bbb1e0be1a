import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { registerRunnerClient, runAuthorization, type AuthorizationRun } from "../../scripts/lib/oauth-conformance.ts";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";
import { loopbackMetadataDocumentsVariable } from "../../src/oauth/from-env.ts";
import { launchChromium } from "../support/browser.ts";
import { startDocumentHost, type DocumentHost } from "../support/client-documents.ts";
import { startDeployment, type Deployment } from "../support/deployment.ts";

/**
 * The MCP conformance suite's authorization-server runner (scripts/lib/oauth-conformance.ts) against the OAuth server
 * built as functions/oauth.ts builds it, served over HTTP from this process, with the consent page approved in Debian's
 * Chromium: once for a client registered dynamically (native, `none`) and once for a client ID metadata document served
 * on loopback (the server's test mode, FRONTDOOR_ALLOW_LOOPBACK_CIMD). Every check of both scenarios must pass.
 * `npm run conformance:oauth` runs the same against the local runtime.
 */
let d: Deployment;
let server: WebServer;
let browser: Browser;
let documents: DocumentHost;

beforeAll(async () => {
  const port = await freePort();
  [d, browser, documents] = await Promise.all([
    startDeployment("local", { baseUrl: `http://127.0.0.1:${port}`, env: { [loopbackMetadataDocumentsVariable]: "1" } }),
    launchChromium(),
    startDocumentHost(),
  ]);
  // One client address, as the runner and Chromium share the machine's.
  server = await serveWeb((request) => d.serve(request, "203.0.113.8"), { port });
});

afterAll(async () => {
  await browser?.close();
  await documents?.close();
  await server?.close();
  await d?.close();
});

/** Every check of both scenarios passed, and Chromium approved the one authorization. */
function expectPassed(run: AuthorizationRun) {
  expect([...run.scenarios.keys()].sort(), run.output).toEqual(["authorization-code-grant", "authorization-server-metadata-endpoint"]);
  const checks = [...run.scenarios.values()].flat();
  expect(
    checks.filter((c) => c.status !== "SUCCESS"),
    run.output,
  ).toEqual([]);
  expect(run.approvals).toBe(1);
  expect(run.exitCode).toBe(0);
}

describe("the conformance suite's authorization-server runner", () => {
  it("passes for a client registered dynamically (native, none)", async () => {
    const port = await freePort();
    const client_id = await registerRunnerClient(d.baseUrl, port);
    expectPassed(await runAuthorization({ browser, issuer: d.baseUrl, clientId: client_id, port, resource: `${d.baseUrl}/mcp` }));
  });

  it("passes for a client ID metadata document on loopback", async () => {
    // Registered without a port: a native app's listener gets any port at run time (RFC 8252 §7.3).
    const clientId = documents.publishClient("/conformance-client.json", {
      client_name: "MCP conformance (metadata document)",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
    });
    expectPassed(await runAuthorization({ browser, issuer: d.baseUrl, clientId, port: await freePort(), resource: `${d.baseUrl}/mcp` }));
  });
});
