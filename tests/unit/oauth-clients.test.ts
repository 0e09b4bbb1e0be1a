import type { Redis } from "@upstash/redis";
import { describe, expect, it } from "vitest";
import { clientKey, registeredClientsKeptAMinute, type ClientRecord } from "../../src/oauth/clients.ts";

/** A store holding registrations by key, counting the reads. */
function storeOf(records: Record<string, ClientRecord>) {
  const reads: string[] = [];
  const redis = { get: async (key: string) => (reads.push(key), records[key] ?? null) } as unknown as Redis;
  return { redis, reads };
}

const record = (client_id: string): ClientRecord => ({
  client_id,
  client_id_issued_at: 0,
  redirect_uris: [],
  grant_types: ["client_credentials"],
  response_types: [],
  token_endpoint_auth_method: "client_secret_post",
});

describe("registrations as the token endpoint reads them", () => {
  const id = "fdc_AAAAAAAAAAAAAAAAAAAAAA";

  it("reads a registration once a minute, not once a token", async () => {
    const { redis, reads } = storeOf({ [clientKey(id)]: record(id) });
    let now = 0;
    const find = registeredClientsKeptAMinute(redis, { now: () => now });
    expect(await find(id)).toEqual(record(id));
    now = 59_999;
    expect(await find(id)).toEqual(record(id));
    expect(reads).toHaveLength(1);
    now = 60_000;
    await find(id);
    expect(reads).toHaveLength(2);
  });

  it("asks again every time for a client_id it did not find, which may have just been registered elsewhere", async () => {
    const records: Record<string, ClientRecord> = {};
    const { redis, reads } = storeOf(records);
    const find = registeredClientsKeptAMinute(redis, { now: () => 0 });
    expect(await find(id)).toBeUndefined();
    records[clientKey(id)] = record(id);
    expect(await find(id)).toEqual(record(id));
    expect(reads).toHaveLength(2);
  });

  it("keeps at most `max` registrations, dropping the oldest", async () => {
    const ids = ["fdc_AAAAAAAAAAAAAAAAAAAAA1", "fdc_AAAAAAAAAAAAAAAAAAAAA2", "fdc_AAAAAAAAAAAAAAAAAAAAA3"];
    const { redis, reads } = storeOf(Object.fromEntries(ids.map((i) => [clientKey(i), record(i)])));
    const find = registeredClientsKeptAMinute(redis, { now: () => 0, max: 2 });
    for (const i of ids) await find(i);
    await find(ids[2]!);
    await find(ids[0]!);
    expect(reads.map((key) => key.slice(-1))).toEqual(["1", "2", "3", "1"]);
  });
});
