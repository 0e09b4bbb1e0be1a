import { describe, expect, it, vi } from "vitest";
import { jwksHandlerFromEnv } from "../../src/oauth/jwks-from-env.ts";
import { generateKeySet } from "../../src/tokens/keys.ts";

describe("GET /.well-known/jwks.json", () => {
  it("publishes the public part of every configured key", async () => {
    const keys = await generateKeySet();
    const handler = jwksHandlerFromEnv((name) => (name === "OAUTH_SIGNING_KEYS" ? JSON.stringify(keys) : undefined));
    for (let i = 0; i < 2; i++) {
      const response = await handler(new Request("https://studio.example/.well-known/jwks.json"), {
        ip: "203.0.113.1",
        waitUntil: () => {},
      });
      expect(response.status).toBe(200);
      const { keys: published } = (await response.json()) as { keys: Record<string, unknown>[] };
      expect(published.map((k) => k.kid)).toEqual(keys.keys.map((k) => k.kid));
      expect(published.every((k) => !("d" in k))).toBe(true);
    }
  });

  it("answers 503 in the OAuth error format while the keys are missing, and serves them once they are set", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    let variable: string | undefined;
    const handler = jwksHandlerFromEnv((name) => (name === "OAUTH_SIGNING_KEYS" ? variable : undefined));
    const missing = await handler(new Request("https://studio.example/.well-known/jwks.json"), { ip: "203.0.113.1", waitUntil: () => {} });
    expect(missing.status).toBe(503);
    expect(missing.headers.get("retry-after")).toBe("300");
    expect(await missing.json()).toMatchObject({ error: "server_error" });
    variable = JSON.stringify(await generateKeySet());
    expect(
      (await handler(new Request("https://studio.example/.well-known/jwks.json"), { ip: "203.0.113.1", waitUntil: () => {} })).status,
    ).toBe(200);
  });
});
