import { bookingSkills } from "../a2a/booking-skills.ts";
import { a2aErrorCodes, a2aRestConditions } from "../a2a/errors.ts";
import { conditions } from "../http/conditions.ts";
import { briefSkillDescription, briefSkillId, readSkillDescription, readSkills } from "../a2a/skills.ts";
import { offersResource } from "../resources/offers.ts";
import type { Site } from "../site/model.ts";
import type { Table } from "./block.ts";

/** The A2A section's tables, from the agent's skill table and its own error codes. */

export const a2aSkillsTable = (site: Site): Table => ({
  columns: ["Skill", "Name", "What it does", "Token"],
  rows: [
    ...readSkills.map((s) => [{ code: s.id }, s.name, readSkillDescription(s), "none"]),
    [{ code: briefSkillId }, "File a project brief", briefSkillDescription({ offers: offersResource(site) }), { code: "svc:brief" }],
    // As the card lists them: only where agents can book.
    ...(site.agentBooking ? bookingSkills : []).map((s) => [{ code: s.id }, s.name, s.description, s.scope ? { code: s.scope } : "none"]),
  ],
});

export const a2aErrorsTable = (): Table => ({
  columns: ["JSON-RPC code", "Meaning"],
  rows: Object.entries(a2aErrorCodes()).map(([name, code]) => [{ code: String(code) }, { code: name }]),
});

/** What the HTTP+JSON binding refuses before the SDK's REST handler sees a request, from the conditions table. */
export const a2aRestErrorsTable = (): Table => ({
  columns: ["HTTP status", "error.status", "ErrorInfo reason", "When"],
  rows: a2aRestConditions.map((name) => {
    const condition = conditions[name];
    return [String(condition.status), { code: condition.a2aRest }, { code: name.toUpperCase() }, condition.when];
  }),
});
