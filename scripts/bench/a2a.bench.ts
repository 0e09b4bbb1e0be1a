import { inProcessAgent } from "../../tests/support/a2a-agent.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * A read skill round trip (SendMessage asking for offers, answered with a message holding the offers JSON) through
 * the /a2a/v1 handler in-process, against the same SDK request handler wrapped without the token check and the
 * quota. The difference is mostly the per-IP quota: one EVALSHA against the LOCAL STORE over loopback HTTP in this
 * process, which writes its snapshot to disk before acknowledging a write; production Upstash costs a network round
 * trip instead. With A2A_BENCH_URL (say http://localhost:8888/a2a/v1 from `npm start`) a short run through the local
 * runtime is added, as a ratio against the in-process handler: informational only, since netlify dev spends about
 * 100 ms starting a worker thread per function call.
 */
export default async function a2aBench() {
  const full = await inProcessAgent();
  const bare = await inProcessAgent({ bare: true });
  const body = (n: number) => ({
    jsonrpc: "2.0",
    id: n,
    method: "SendMessage",
    params: { message: { messageId: `m-${n}`, role: "ROLE_USER", parts: [{ data: { skill: "offers" } }] } },
  });
  const roundTrip = (agent: typeof full) => {
    let n = 0;
    return async () => {
      const response = await agent.rpc(body(++n));
      const answer = (await response.json()) as { result?: { message?: unknown } };
      if (response.status !== 200 || !answer.result?.message) throw new Error(`the agent answered ${response.status}`);
    };
  };
  try {
    const viaHandler = await measure(roundTrip(full));
    const viaBare = await measure(roundTrip(bare));
    console.log(describeFigures("A2A read skill, /a2a/v1 handler (quota over the local store, in-process)", viaHandler));
    console.log(describeFigures("A2A read skill, bare SDK handler (no token check, no quota)", viaBare));
    console.log(`\nthroughput ratio handler / bare: ${(viaHandler.perSecond / viaBare.perSecond).toFixed(2)}`);
    console.log(`median overhead per call: ${(viaHandler.p50 - viaBare.p50).toFixed(2)} ms (quota, body checks, routing)`);
    const url = process.env.A2A_BENCH_URL;
    if (url) {
      let n = 0;
      const throughRuntime = await measure(
        async () => {
          const response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", "a2a-version": "1.0" },
            body: JSON.stringify(body(++n)),
          });
          if (response.status !== 200) throw new Error(`the local runtime answered ${response.status}`);
          await response.arrayBuffer();
        },
        { warmup: 3, count: 30 },
      );
      console.log(`\ninformational, through the local runtime at ${url} (the emulator, not Netlify):`);
      console.log(describeFigures("A2A read skill, local runtime", throughRuntime));
      console.log(`ratio local runtime / in-process handler: ${(throughRuntime.perSecond / viaHandler.perSecond).toFixed(3)}`);
    }
  } finally {
    await full.close();
    await bare.close();
  }
}
