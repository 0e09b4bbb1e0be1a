import { beforeAll, describe, expect, inject, it } from "vitest";
import { freshBrief } from "../support/briefs.ts";
import { leadsCli } from "../support/leads-cli.ts";
import { clientCredentialsToken } from "../support/oauth-client.ts";

/** `npm run leads`, run as an operator runs it next to a running local runtime. */
const base = inject("baseUrl");
const postmark = inject("postmark");
const leads = (...args: string[]) => leadsCli(inject("dataDir"), ...args);

let token: string;
beforeAll(async () => {
  token = (await clientCredentialsToken(base, "svc:brief")).token;
});

const file = async (brief: object) => {
  const res = await fetch(`${base}/api/v1/briefs`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(brief),
  });
  return ((await res.json()) as { lead_id: string }).lead_id;
};

describe("npm run leads", () => {
  it("lists leads with their delivery state, and resends one that failed once the cause is fixed", async () => {
    await fetch(`${postmark}/_standin/faults`, { method: "POST", body: JSON.stringify(["sender-signature"]) });
    const brief = freshBrief();
    const id = await file(brief);
    await expect.poll(async () => (await leads("show", id)).out).toContain('"state": "failed"');

    const list = await leads();
    expect(list.code).toBe(0);
    const row = list.out.split("\n").find((line) => line.startsWith(id));
    expect(row).toMatch(/failed/);
    expect(row).toContain(`${brief.company_name} <${brief.work_email}>`);

    const resend = await leads("resend", id);
    expect(resend.out).toContain(`${id}: delivered`);
    const again = await leads("resend", id);
    expect(again.code).toBe(1);
    expect(again.out).toContain("nothing to resend");
  });
});
