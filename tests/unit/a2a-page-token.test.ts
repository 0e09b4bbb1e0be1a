import { describe, expect, it } from "vitest";
import { pageTokenLabel, pageTokens } from "../../src/a2a/page-token.ts";
import { requestStateKeys } from "../../src/mcp/request-state.ts";
import { derivedSecrets } from "../../src/tokens/derived-keys.ts";
import { generateKeySet } from "../../src/tokens/keys.ts";

/**
 * ListTasks' page tokens on their own: the MAC under secrets derived from OAUTH_SIGNING_KEYS, bound to a grant, across a
 * rotation of the keys (the first key's secret signs, every key's verifies). The store's use of them is in
 * tests/store/a2a-task-store.test.ts; both bindings, in-process, in tests/doors/a2a-tasks.test.ts.
 */
const [oldKey, newKey] = [(await generateKeySet()).keys[0]!, (await generateKeySet()).keys[0]!];
const setOf = (...keys: object[]) => JSON.stringify({ keys });
const tokensFor = (set: string) => pageTokens(() => derivedSecrets(set, pageTokenLabel));
const cursor = { score: 1_790_000_000_000, id: "0b6c5d8e-task" };
const refused = { name: "RequestMalformedError", message: expect.stringMatching(/^pageToken is not a nextPageToken/) };

describe("page tokens", () => {
  it("read back the cursor they were issued for, for that grant only", async () => {
    const tokens = tokensFor(setOf(oldKey));
    const token = await tokens.issue(cursor, "grant-a");
    expect(await tokens.read(token, "grant-a")).toEqual(cursor);
    await expect(tokens.read(token, "grant-b")).rejects.toMatchObject(refused);
    await expect(tokens.read(token, "")).rejects.toMatchObject(refused);
  });

  it("are refused when issued under a key set the agent does not hold", async () => {
    const token = await tokensFor(setOf(oldKey)).issue(cursor, "grant-a");
    await expect(tokensFor(setOf(newKey)).read(token, "grant-a")).rejects.toMatchObject(refused);
  });

  it("outlive a key switch and are refused once their key is retired", async () => {
    const token = await tokensFor(setOf(oldKey)).issue(cursor, "grant-a");
    // `npm run keys -- rotate publish` then `switch`: the new key first, the old one still in the set.
    expect(await tokensFor(setOf(oldKey, newKey)).read(token, "grant-a")).toEqual(cursor);
    const switched = tokensFor(setOf(newKey, oldKey));
    expect(await switched.read(token, "grant-a")).toEqual(cursor);
    const fresh = await switched.issue(cursor, "grant-a");
    // `retire`: the old key gone, and what it signed with it; what the new key signed still reads.
    const retired = tokensFor(setOf(newKey));
    await expect(retired.read(token, "grant-a")).rejects.toMatchObject(refused);
    expect(await retired.read(fresh, "grant-a")).toEqual(cursor);
  });

  it("refuse anything longer than any token issued, before verifying it", async () => {
    const tokens = tokensFor(setOf(oldKey));
    const token = await tokens.issue({ ...cursor, id: "x".repeat(200) }, "grant-a");
    expect(token.length).toBeLessThan(1024);
    await expect(tokens.read(`${"A".repeat(1024)}.${token.split(".")[1]}`, "grant-a")).rejects.toMatchObject(refused);
  });
});

describe("secrets derived from the signing keys", () => {
  it("are the same for the same key and label, one per key in order, and differ between labels", async () => {
    const set = setOf(newKey, oldKey);
    const [again, requestState] = [await derivedSecrets(set, pageTokenLabel), await requestStateKeys(set)];
    const pageToken = await derivedSecrets(set, pageTokenLabel);
    expect(pageToken).toHaveLength(2);
    expect(again).toEqual(pageToken);
    expect(pageToken[0]).not.toEqual(pageToken[1]);
    expect(pageToken[0]).not.toEqual(requestState[0]);
    expect((await derivedSecrets(setOf(oldKey), pageTokenLabel))[0]).toEqual(pageToken[1]);
  });
});
