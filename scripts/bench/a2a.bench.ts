import { inProcessAgent } from "../../tests/support/a2a-agent.ts";
import { describeFigures, measure } from "./stats.ts";

/**
 * A read skill round trip (SendMessage asking for offers, answered with a message holding the offers JSON) through
 * the /a2a/v1 handler in-process, against the same SDK request handler wrapped without the token check and the
 * quota. The difference is mostly the per-IP quota: one EVALSHA against the LOCAL STORE over loopback HTTP in this
 * process, which writes its snapshot to disk before acknowledging a write; production Upstash costs a network round
 * trip instead. The local runtime is measured by emulator.bench.ts.
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
  const restRoundTrip = (agent: typeof full) => {
    let n = 0;
    return async () => {
      const response = await agent.restSend(body(++n).params);
      const answer = (await response.json()) as { message?: unknown };
      if (response.status !== 200 || !answer.message) throw new Error(`the agent answered ${response.status} over REST`);
    };
  };
  try {
    const viaRest = await measure(restRoundTrip(full));
    const viaBareRest = await measure(restRoundTrip(bare));
    const viaHandler = await measure(roundTrip(full));
    const viaBare = await measure(roundTrip(bare));
    console.log(describeFigures("A2A read skill, /a2a/v1 handler (quota over the local store, in-process)", viaHandler));
    console.log(describeFigures("A2A read skill, bare SDK handler (no token check, no quota)", viaBare));
    console.log(`\nthroughput ratio handler / bare: ${(viaHandler.perSecond / viaBare.perSecond).toFixed(2)}`);
    console.log(`median overhead per call: ${(viaHandler.p50 - viaBare.p50).toFixed(2)} ms (quota, body checks, routing)`);
    console.log(describeFigures("A2A read skill over HTTP+JSON, /a2a/v1/rest handler (quota, in-process)", viaRest));
    console.log(describeFigures("A2A read skill over HTTP+JSON, bare (no token check, no quota)", viaBareRest));
    console.log(`\nHTTP+JSON throughput ratio handler / bare JSON-RPC: ${(viaRest.perSecond / viaBare.perSecond).toFixed(2)}`);
    console.log(`HTTP+JSON bare / JSON-RPC bare: ${(viaBareRest.perSecond / viaBare.perSecond).toFixed(2)} (the Express bridge)`);
  } finally {
    await full.close();
    await bare.close();
  }
}
