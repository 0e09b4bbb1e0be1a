import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/config/env.ts";
import { deployment, writes } from "../../src/deployment.ts";
import { lazy } from "../../src/lazy.ts";
import { prebuilt } from "../support/deployment.ts";

/** The wiring module: every service of a function instance built once, on first use, over one store client. */
const env = (values: Record<string, string>) => (name: string) => values[name];
const store = { URL: "https://studio.example", UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1", UPSTASH_REDIS_REST_TOKEN: "t" };
const resources = await prebuilt();

describe("lazy", () => {
  it("makes a value once, on first use", () => {
    let made = 0;
    const value = lazy(() => ({ n: ++made }));
    expect(made).toBe(0);
    expect(value()).toBe(value());
    expect(made).toBe(1);
  });

  it("keeps neither a thrown error nor a rejected promise: the next use tries again", async () => {
    let tries = 0;
    const thrown = lazy(() => {
      if (++tries === 1) throw new Error("not yet");
      return tries;
    });
    expect(thrown).toThrow("not yet");
    expect(thrown()).toBe(2);

    let calls = 0;
    const rejected = lazy(async () => {
      if (++calls === 1) throw new Error("not yet");
      return calls;
    });
    await expect(rejected()).rejects.toThrow("not yet");
    expect(await rejected()).toBe(2);
    expect(await rejected()).toBe(2);
  });
});

describe("deployment", () => {
  it("opens one store client and one limiter for the instance, which filing and booking share", () => {
    const d = deployment(env({ ...store, CAL_EVENT_TYPE_ID: "7", CAL_API_KEY: "cal_test" }));
    const { pipeline, booking } = writes(d, resources);
    expect(d.redis()).toBe(d.redis());
    expect(pipeline().limiter).toBe(d.limiter());
    const deps = booking.booking();
    expect(deps?.limiter).toBe(d.limiter());
    expect(pipeline()).toBe(pipeline());
  });

  it("builds nothing until a service is used, and reads a wrong setting again on the next use", () => {
    const values: Record<string, string> = { ...store, CAL_EVENT_TYPE_ID: "7" };
    const d = deployment(env(values));
    const { booking } = writes(d, resources);
    expect(() => booking.booking()).toThrow(ConfigurationError);
    values.CAL_API_KEY = "cal_test";
    expect(booking.booking()?.cal.eventTypeId).toBe(7);
  });
});
