import "./node-check.ts";
import { fileURLToPath } from "node:url";
import { buildDoors } from "./lib/doors.ts";

// Part of npm run build: Netlify bundles the functions after the build command, and each function imports its door.
await buildDoors(fileURLToPath(new URL("..", import.meta.url)));
