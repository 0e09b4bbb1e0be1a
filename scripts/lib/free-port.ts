import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Whether `port` can be listened on, on loopback, right now. */
const listenable = (port: number) =>
  new Promise<number | undefined>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const { port: taken } = server.address() as { port: number };
      server.close(() => resolve(taken));
    });
  });

/** The lowest port the kernel hands out to a socket that asks for any (Linux's ip_local_port_range), if it says. */
function ephemeralFloor(): number | undefined {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return low > 11_000 ? low : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A TCP port free on loopback right now, below the kernel's ephemeral range where it can: a port taken later (npm start
 * takes PORT only once netlify dev listens) is then never handed meanwhile to a process that listens on port 0, as
 * npm start's Cal.com stand-in does.
 */
export async function freePort(): Promise<number> {
  const floor = ephemeralFloor();
  for (let tries = 0; floor && tries < 20; tries++) {
    const port = await listenable(10_000 + Math.floor(Math.random() * (floor - 10_000)));
    if (port) return port;
  }
  const port = await listenable(0);
  if (!port) throw new Error("No TCP port is free on loopback.");
  return port;
}
