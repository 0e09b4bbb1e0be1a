import { root } from "./beside-the-suite.ts";
import { runtimeForProject } from "./global-runtime.ts";
import { startRuntimeOfItsOwn } from "./runtime-of-its-own.ts";

/** The own-runtime project's: npm start in a copy of the checkout, beside the runtime project's (./runtime-of-its-own.ts). */
export const { setup, teardown } = runtimeForProject((env, options) => startRuntimeOfItsOwn(root, env, options));
