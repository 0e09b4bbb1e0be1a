import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { serverCardPath } from "../../src/paths.ts";
import { netlifyDevAt } from "../support/netlify-dev-process.ts";

/**
 * npm start starved of CPU. netlify dev runs every function call in a worker of its own, and lambda-local gives the call
 * 30 s from the start of its handler, which first loads the function's door; on a loaded machine a burst of calls
 * shares the CPU until some pass that limit, and netlify dev answers them 500 with lambda-local's stack. Here the
 * starvation is the test's own: netlify dev's process is stopped (SIGSTOP) for that limit, then continued.
 *
 * Where a call is when the process stops decides how it ends. Once its door has asked the store (the quota), the door's
 * own deadlines (2 s, 10 s) pass first when the process runs again, and the door answers (the card, served without the
 * quota); before that, loading its door, the call has no deadline but lambda-local's, which has passed: netlify dev
 * gives up on it. So the process is stopped the moment the first call of a burst connects to the store: the others,
 * handed on with it and as far along, are loading their doors.
 *
 * The file has a runtime of its own (the own-runtime project's, beside the suite's): no other file calls it meanwhile,
 * and netlify dev serves as before once continued (each call it gave up on leaves its worker thread behind, idle, until
 * netlify dev ends).
 */
const base = inject("baseUrl");
const checkout = inject("checkout");
const netlifyDevLog = inject("netlifyDevLog");
const storePort = Number(new URL(inject("store").url).port);
/** lambda-local's limit under netlify dev offline (netlify-cli's SYNCHRONOUS_FUNCTION_TIMEOUT). */
const functionTimeoutMs = 30_000;
/** More calls than the front hands netlify dev at once on a 2-core machine, so that some wait in its queue meanwhile. */
const burstSize = 6;

interface Answer {
  status: number;
  type: string | null;
  retryAfter: string | null;
  text: string;
}

const get = async (): Promise<Answer> => {
  const res = await fetch(`${base}${serverCardPath}`);
  return { status: res.status, type: res.headers.get("content-type"), retryAfter: res.headers.get("retry-after"), text: await res.text() };
};

/** The clients connected to the store: the far ends of its port's established sockets, from the kernel's tables. */
async function storeClients(): Promise<Set<string>> {
  const port = `:${storePort.toString(16).toUpperCase().padStart(4, "0")}`;
  const tables = await Promise.all(["/proc/net/tcp", "/proc/net/tcp6"].map((file) => readFile(file, "utf8").catch(() => "")));
  const clients = new Set<string>();
  for (const line of tables.join("\n").split("\n")) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (local?.endsWith(port) && state === "01") clients.add(remote!);
  }
  return clients;
}

/**
 * A burst of calls, netlify dev stopped once one of them connects to the store. `alone` says whether netlify dev took
 * no other function call meanwhile (npm start calls the lead delivery job once a minute, whose worker uses the store
 * too): its log names every call its functions server takes.
 */
async function burstStoppedAtTheStore(netlifyDev: number): Promise<{ answers: Promise<Answer[]>; alone: boolean }> {
  const logFrom = (await readFile(netlifyDevLog, "utf8")).length;
  const before = await storeClients();
  let answered = 0;
  const answers = Promise.all(Array.from({ length: burstSize }, () => get().finally(() => answered++)));
  while (answered === 0 && [...(await storeClients())].every((client) => before.has(client))) await sleep(1);
  process.kill(netlifyDev, "SIGSTOP");
  const calls = [...(await readFile(netlifyDevLog, "utf8")).slice(logFrom).matchAll(/Request from .*?: ([A-Z]+) (\S+)/g)];
  return { answers, alone: calls.every(([, method, path]) => `${method} ${path}` === `GET ${serverCardPath}`) };
}

/** What a burst stopped at the store gets once netlify dev runs again, lambda-local's limit passed meanwhile. */
async function starvedBurst(netlifyDev: number): Promise<Answer[]> {
  let burst: Awaited<ReturnType<typeof burstStoppedAtTheStore>> | undefined;
  try {
    burst = await burstStoppedAtTheStore(netlifyDev);
    if (!burst.alone) {
      // Another call's worker may have been the one at the store: this burst is let go, and the next stopped.
      process.kill(netlifyDev, "SIGCONT");
      await burst.answers;
      burst = await burstStoppedAtTheStore(netlifyDev);
    }
    // And a few clock ticks more: a call that had only just started has passed its limit too.
    await sleep(functionTimeoutMs + 100);
  } finally {
    process.kill(netlifyDev, "SIGCONT");
  }
  return burst.answers;
}

const limitPassed = (answers: Answer[]) =>
  answers.some(
    (a) =>
      a.status === 503 &&
      (JSON.parse(a.text) as { error: { message: string } }).error.message.includes(`${functionTimeoutMs / 1000} s limit`),
  );

describe("npm start, its runtime starved", () => {
  it("answers every call of a door in the door's format, 200 or 503 with Retry-After: never 500, never a stack", async () => {
    const netlifyDev = await netlifyDevAt(new URL(base).port);
    expect(netlifyDev).toBeDefined();
    // On a loaded machine this process may see the store connection late, once every call has loaded its door: none
    // then passes the limit, and another burst is starved, up to three.
    const bursts: Answer[][] = [];
    while (bursts.length < 3 && !bursts.some(limitPassed)) bursts.push(await starvedBurst(netlifyDev!));

    for (const answer of bursts.flat()) {
      expect([200, 503], answer.text).toContain(answer.status);
      expect(answer.text).not.toMatch(/\bat (new )?\S+ \(|node_modules|TimeoutError|Task timed out/);
      expect(answer.text).not.toContain(checkout);
      if (answer.status === 200) expect(answer.type).toBe("application/mcp-server-card+json");
      else {
        expect(answer.type).toMatch(/^application\/json/);
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32093, data: { code: "service_unavailable" } } });
      }
    }
    // The starvation happened: netlify dev gave up on some call, and the front answered it as the door's 503.
    expect(bursts.some(limitPassed)).toBe(true);
  });
});
