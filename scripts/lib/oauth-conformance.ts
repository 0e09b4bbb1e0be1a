import { spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Browser } from "playwright-core";
import { reportFolder, suiteCli, type Check } from "./conformance-suite.ts";

/**
 * The MCP conformance suite's authorization-server runner (`conformance authorization`: the metadata endpoint and the
 * authorization-code grant) for one client, with a person's part played by Chromium: where the runner prints the
 * authorization URL for a person to open, Chromium opens it and clicks Approve on the consent page, and the browser
 * lands on the runner's callback on 127.0.0.1:<port>. Used by tests/doors/oauth-conformance.test.ts and
 * `npm run conformance:oauth`.
 */
export interface AuthorizationRun {
  /** Each scenario's checks, by scenario, as the runner reported them. */
  scenarios: Map<string, Check[]>;
  exitCode: number;
  /** What the runner printed. */
  output: string;
  /** How many times Chromium approved. */
  approvals: number;
}

export interface AuthorizationOptions {
  browser: Browser;
  /** The authorization server's issuer (its metadata lives at /.well-known/oauth-authorization-server). */
  issuer: string;
  clientId: string;
  /** The port of the runner's callback listener: the client's redirect URI must allow http://127.0.0.1:<port>/callback. */
  port: number;
  /** The RFC 8707 resource the token is asked for (the MCP endpoint). */
  resource?: string;
  /** Each line the runner prints, as it prints it. */
  onLine?: (line: string) => void;
}

/** Opens the authorization URL, approves, and waits until the browser lands on the runner's callback. */
async function approve(browser: Browser, url: string, callback: string): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callback)), page.getByRole("button", { name: "Approve" }).click()]);
  } finally {
    await page.close();
  }
}

export async function runAuthorization({
  browser,
  issuer,
  clientId,
  port,
  resource,
  onLine,
}: AuthorizationOptions): Promise<AuthorizationRun> {
  const out = await reportFolder();
  try {
    const args = [suiteCli, "authorization", "--url", issuer, "--client-id", clientId, "--port", String(port), "-o", out];
    if (resource) args.push("--resource", resource);
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number>((resolve) => child.once("close", (code) => resolve(code ?? 1)));
    const lines: string[] = [];
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => lines.push(chunk));
    const approvals: Promise<void>[] = [];
    const authorize = `${issuer}/oauth/authorize?`;
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      onLine?.(line);
      if (line.startsWith(authorize)) approvals.push(approve(browser, line, `http://127.0.0.1:${port}/callback`));
    }
    await Promise.all(approvals);
    const exitCode = await exited;
    const scenarios = new Map<string, Check[]>();
    for (const name of await readdir(out)) {
      const [, scenario] = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(name) ?? [];
      if (scenario) scenarios.set(scenario, JSON.parse(await readFile(join(out, name, "checks.json"), "utf8")) as Check[]);
    }
    return { scenarios, exitCode, output: lines.join("\n"), approvals: approvals.length };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** A native public client registered at `base` for the runner's loopback callback on `port`: its client_id. */
export async function registerRunnerClient(base: string, port: number): Promise<string> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP conformance (registered)",
      application_type: "native",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      token_endpoint_auth_method: "none",
    }),
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  return ((await registered.json()) as { client_id: string }).client_id;
}
