import "./node-check.ts";
import { notApplicable, runChecks, scoreOf } from "./agent-ready/checks.ts";

// npm run check:agent-ready -- <base_url>: the agent-readiness checks public scanners make, one line each.
const base = process.argv[2];
if (!base) {
  console.error("usage: npm run check:agent-ready -- <base_url>   (for example http://localhost:8888)");
  process.exit(2);
}
const results = await runChecks(base);
for (const r of results) console.log(`${r.ok ? "PASS" : "FAIL"}  ${r.title.padEnd(40)} ${r.detail}`);
for (const n of notApplicable) console.log(`N/A   ${n.title.padEnd(40)} ${n.reason}`);
const failed = results.filter((r) => !r.ok).length;
console.log(
  `\nscore ${scoreOf(results)}%: ${results.length - failed} of the ${results.length} checks that apply passed, ${failed} failed (${notApplicable.length} do not apply)`,
);
process.exitCode = failed === 0 ? 0 : 1;
