import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("jwks", import.meta.url)) as Promise<typeof import("../src/oauth/jwks-from-env.ts")>;

export default netlifyFunction(async () => (await door()).jwksHandlerFromEnv(platformEnv), platformEnv);

// Every method: the door answers GET and HEAD, and 405 in OAuth's format for the others.
export const config: Config = { path: "/.well-known/jwks.json" };
