import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fileMemo } from "../../src/http/netlify-dev-file-memo.ts";

const refusal = { status: 403, headers: [["content-type", "application/json"]] as [string, string][], body: '{"error":"forbidden"}' };

describe("the memo netlify dev's function workers share (files)", () => {
  it("gives back what one worker kept to another, until it is deleted", async () => {
    const namespace = `http://127.0.0.1:1/${randomUUID()}`;
    await fileMemo(namespace).set("k", refusal);
    expect(await fileMemo(namespace).get("k")).toEqual(refusal);
    await fileMemo(namespace).delete("k");
    expect(await fileMemo(namespace).get("k")).toBeUndefined();
  });

  it("keeps runtimes apart and forgets an entry older than its lifetime", async () => {
    const namespace = `http://127.0.0.1:2/${randomUUID()}`;
    await fileMemo(namespace).set("k", refusal);
    expect(await fileMemo(`${namespace}-other`).get("k")).toBeUndefined();
    expect(await fileMemo(namespace, 0).get("k")).toBeUndefined();
    await fileMemo(namespace).delete("k");
  });
});
