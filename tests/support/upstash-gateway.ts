import { Redis as IORedis } from "ioredis";
import { redisBackend } from "../../scripts/local-store/backends.ts";
import { createUpstashRestHandler, type Command } from "../../scripts/local-store/upstash-rest.ts";
import { serveWeb } from "../../scripts/lib/serve-web.ts";
import { patience } from "./patience.ts";

export interface Gateway {
  url: string;
  token: string;
  /** Every command received, for counting Upstash's paid units. */
  commands: Command[];
  redis: IORedis;
  close(): Promise<void>;
}

/** Is a real Redis answering at 127.0.0.1:6379? With CI=true a missing Redis is an error, not a skip. */
export async function realRedisAvailable(): Promise<boolean> {
  const redis = new IORedis({
    host: "127.0.0.1",
    port: 6379,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: patience,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    if (process.env.CI === "true")
      throw new Error("CI=true but no Redis answers at 127.0.0.1:6379; the Upstash path must be tested against real Redis in CI");
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * An Upstash-REST-compatible gateway in front of the machine's real Redis. Each test file names its own logical
 * database, emptied when the gateway starts and when it closes, so files never see each other's keys.
 */
export async function startRedisGateway(db: number, token = "test-gateway-token"): Promise<Gateway> {
  // Two checkouts testing on one machine keep apart by shifting their databases (0-15, wrapping around).
  const shifted = (((db - Number(process.env.FRONTDOOR_TEST_REDIS_DB_SHIFT ?? 0)) % 16) + 16) % 16;
  const redis = new IORedis({ host: "127.0.0.1", port: 6379, db: shifted, maxRetriesPerRequest: 1 });
  await redis.flushdb();
  const commands: Command[] = [];
  const server = await serveWeb(createUpstashRestHandler({ token, backend: redisBackend(redis), onCommand: (c) => commands.push(c) }));
  return {
    url: server.url,
    token,
    commands,
    redis,
    async close() {
      await server.close();
      await redis.flushdb();
      redis.disconnect();
    },
  };
}
