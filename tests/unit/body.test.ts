import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonObject, readForm, readJson } from "../../src/http/body.ts";
import { Refusal } from "../../src/http/refusal.ts";

const post = (body: BodyInit, type?: string) =>
  new Request("https://studio.example/x", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });
const latin1 = new Uint8Array([...new TextEncoder().encode("name=Ren"), 0xe9]);
const refusedAs = async (work: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (error) {
    if (error instanceof Refusal) return error.condition;
    throw error;
  }
  return "read";
};

/** The core's one body reader: JSON and forms, capped, strict UTF-8, each protocol naming its own refusals. */
describe("the body reader", () => {
  it("reads a form and JSON within the cap", async () => {
    expect((await readForm(post("a=1&b=%C3%A9", "application/x-www-form-urlencoded"), { limit: 100 })).get("b")).toBe("é");
    expect(await readJson(post('{"a":1}', "application/json"), { limit: 100 })).toEqual({ a: 1 });
    expect(
      await readJson(post('{"a":1}', "application/a2a+json"), { limit: 100, types: ["application/json", "application/a2a+json"] }),
    ).toEqual({
      a: 1,
    });
    // Only the types the endpoint names: another +json type is another type.
    expect(await refusedAs(readJson(post('{"a":1}', "application/foo+json"), { limit: 100 }))).toBe("unsupported_media_type");
  });

  it("refuses another media type, a body over the cap and bytes that are not UTF-8, by default as the core names them", async () => {
    expect(await refusedAs(readForm(post("a=1", "text/plain"), { limit: 100 }))).toBe("unsupported_media_type");
    expect(await refusedAs(readForm(post("a=".padEnd(101, "x"), "application/x-www-form-urlencoded"), { limit: 100 }))).toBe(
      "payload_too_large",
    );
    expect(await refusedAs(readForm(post(latin1, "application/x-www-form-urlencoded"), { limit: 100 }))).toBe("invalid_json");
    expect(await refusedAs(readJson(post("{", "application/json"), { limit: 100 }))).toBe("invalid_json");
    // Bytes, since a string body would be typed text/plain.
    const untyped = () => post(new TextEncoder().encode("{}"));
    expect(await refusedAs(readJson(untyped(), { limit: 100 }))).toBe("unsupported_media_type");
    expect(await readJson(untyped(), { limit: 100, untypedIsJson: true })).toEqual({});
  });

  it("refuses each as the protocol names it", async () => {
    const refuseAs = {
      wrongType: "invalid_oauth_request",
      tooLarge: "client_metadata_too_large",
      malformed: "invalid_client_metadata",
    } as const;
    expect(await refusedAs(readForm(post("a=1", "text/plain"), { limit: 100, refuseAs }))).toBe("invalid_oauth_request");
    expect(await refusedAs(readJson(post("x".repeat(101), "application/json"), { limit: 100, refuseAs }))).toBe(
      "client_metadata_too_large",
    );
    expect(await refusedAs(readJson(post("[", "application/json"), { limit: 100, refuseAs }))).toBe("invalid_client_metadata");
  });

  it("takes an object nested at most 32 levels as an object", async () => {
    const nested = (depth: number): unknown => (depth === 1 ? {} : { a: nested(depth - 1) });
    expect(await refusedAs(() => jsonObject(nested(32)))).toBe("read");
    expect(await refusedAs(() => jsonObject(nested(33)))).toBe("nested_too_deep");
    expect(await refusedAs(() => jsonObject([]))).toBe("invalid_json");
    expect(await refusedAs(() => jsonObject(nested(33), "invalid_client_metadata"))).toBe("invalid_client_metadata");
  });
});

describe("a member name given twice", () => {
  const read = (text: string) => refusedAs(readJson(post(text, "application/json"), { limit: 100_000 }));

  it.each([
    ['{"dry_run":true,"dry_run":false}'],
    ['{"a":{"b":1,"b":2}}'],
    ['[{"x":1},{"y":{"z":[1,{"k":1,"k":1}]}}]'],
    // The same name, however it is escaped.
    ['{"dry_run":1,"dry\\u005frun":2}'],
  ])("is refused as invalid_json: %s", async (text) => {
    expect(await read(text)).toBe("invalid_json");
  });

  it.each([
    ['{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}'],
    ['{"a":"a","b":"\\"a\\":1,\\"a\\":2","c":["a","a"]}'],
    ['{"":1,"a":{},"b":[]}'],
    [`${"[".repeat(5_000)}${"]".repeat(5_000)}`],
  ])("is not a repeat when the name is only repeated in another object, a value or a string: %s", async (text) => {
    expect(await read(text)).toBe("read");
  });

  it("finds a repeat wherever it is, as JSON.parse would have kept only the last value", async () => {
    const { duplicateMember } = await import("../../src/http/duplicate-members.ts");
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // A text JSON.stringify writes never repeats a name.
        expect(duplicateMember(JSON.stringify(value))).toBeUndefined();
      }),
    );
    expect(duplicateMember('{"a" : 1 , "b":2,\n "a":3}')).toBe("a");
  });
});
