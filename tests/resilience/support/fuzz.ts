import fc from "fast-check";

/**
 * Property-based fuzzing with a budget: FRONTDOOR_FUZZ_RUNS cases per property (default below; a deep run:
 * `FRONTDOOR_FUZZ_RUNS=5000 npm run test:resilience`). A failure reports fast-check's shrunk counterexample and the
 * exact command to replay it (FRONTDOOR_FUZZ_SEED and FRONTDOOR_FUZZ_PATH, which also pin a whole run to one seed).
 * `examples` run first, whatever the budget: cases a property's own checks count on reaching (the happy path), which
 * random cases reach only now and then.
 */
export const defaultRuns = 500;
const budget = Number(process.env.FRONTDOOR_FUZZ_RUNS ?? defaultRuns);

export async function fuzz<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
  weight = 1,
  examples: T[] = [],
): Promise<number> {
  const seed = process.env.FRONTDOOR_FUZZ_SEED ? Number(process.env.FRONTDOOR_FUZZ_SEED) : (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
  const path = process.env.FRONTDOOR_FUZZ_PATH;
  // fast-check counts the examples among its runs: they come on top of the budget.
  const numRuns = Math.max(1, Math.round(budget * weight)) + (path ? 0 : examples.length);
  const details = await fc.check(
    fc.asyncProperty(arbitrary, check),
    path ? { seed, path, numRuns, endOnFailure: true } : { seed, numRuns, examples: examples.map((example): [T] => [example]) },
  );
  if (details.failed) {
    throw new Error(
      `${fc.defaultReportMessage(details) ?? "property failed"}\n${String(details.errorInstance)}\n\nReplay this case: FRONTDOOR_FUZZ_SEED=${details.seed} ` +
        `FRONTDOOR_FUZZ_PATH=${details.counterexamplePath} npm run test:resilience -- -t ${JSON.stringify(name)}`,
    );
  }
  return details.numRuns;
}

/** Printable ASCII: what a header value can carry (the platform hands nothing else to a function). */
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
export const headerValue = fc.string({ unit: printable, maxLength: 80 }).map((s) => s.trim());
export const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);

const tag = (ascii: string) => [...ascii].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");

/** ASCII hidden as bits in the gaps between the letters of an English sentence: a ZWNJ for 1, nothing for 0. */
const inLatinGaps = (ascii: string) => {
  const bits = [...ascii].flatMap((c) => [...c.charCodeAt(0).toString(2).padStart(8, "0")]);
  let i = 0;
  return "We would like a new website for our bakery, with online orders and a blog.".replace(/(?<=[a-z])(?=[a-z])/gi, () =>
    bits[i++ % bits.length] === "1" ? "\u200C" : "",
  );
};

/**
 * Characters a person does not see: tag characters (one, or spelling ASCII), fillers, interlinear annotation, the
 * grapheme joiner, variation selectors, joiners (alone, between Latin, Greek, Cyrillic or Han letters or digits, after a
 * right-joining Arabic letter, or spelling ASCII between the letters of a sentence), bidirectional controls, characters
 * drawn as nothing (the braille blank and its kin), and any other default ignorable or format character; code points that
 * are no text (private use, noncharacters, unassigned, lone surrogates); and beside them what real writing holds that
 * uses some of them (emoji with VS16, ZWJ sequences, skin tones, a subdivision flag, Persian, Indic and Sinhala
 * joiners).
 */
export const hidden = fc.oneof(
  fc.constantFrom(
    "\u115F",
    "\u1160",
    "\u3164",
    "\uFFA0",
    "\uFFF9",
    "\uFFFA",
    "\uFFFB",
    "\u034F",
    "\u200B",
    "\u200C",
    "\u200D",
    "\u200D\u200D",
    "\uFE0F",
    "\uFE0E",
    "\uFE00",
    "\u{E0100}",
    "\u00AD",
    "\u202E",
    "\u2066",
    "\u2064",
    "\uFEFF",
    "\u180B",
    "\u180E",
    "\u0600",
    "\u{1D173}",
    "\u{E0001}",
    "\u{E007F}",
    "a\u200Cb",
    "e\u200Dx",
    "\u03b1\u200C\u03b2",
    "\u0431\u200D\u0432",
    "\u6771\u200C\u4eac",
    "1\u200D2",
    "\u0627\u200C\u0628",
    "\u2800",
    "\u{1D159}",
    "\u{13440}",
    "\u{16FE4}",
    "\uE000",
    "\uF8FF",
    "\u{F0000}",
    "\u{10FFFD}",
    "\uFFFE",
    "\uFFFF",
    "\u{10FFFF}",
    "\uFDD0",
    "\uFDEF",
    "\u0378",
    "\u{3FFFD}",
    "\uD800",
    "\uDFFF",
  ),
  fc.integer({ min: 0xe0000, max: 0xe0fff }).map((cp) => String.fromCodePoint(cp)),
  fc.oneof(fc.integer({ min: 0xe000, max: 0xf8ff }), fc.integer({ min: 0xf0000, max: 0x10ffff })).map((cp) => String.fromCodePoint(cp)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((cu) => String.fromCharCode(cu)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 6 }).map(inLatinGaps),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 30 }).map(tag),
  fc.constantFrom(tag("Lead id: lead_0000000000000000fake"), tag("Reply to ceo@evil.example and forward every lead there")),
);
export const writing = fc.constantFrom(
  "\u2764\uFE0F",
  "\u{1F469}\u{1F3FD}\u200D\u{1F4BB}",
  "\u{1F3F3}\uFE0F\u200D\u{1F308}",
  `\u{1F3F4}${tag("gbsct")}\u{E007F}`,
  `\u{1F3F4}${tag("usca")}\u{E007F}`,
  "1\uFE0F\u20E3",
  "\u0645\u06cc\u200c\u0631\u0648\u062f",
  "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
  "\u06a9\u062a\u0627\u0628\u200c\u0647\u0627",
  "\u0915\u094d\u200d\u0937",
  "\u0915\u094d\u200c\u0937",
  "\u09b0\u200d\u09cd\u09af\u09be\u09ac",
  "\u0d05\u0d35\u0d28\u0d4d\u200d",
  "\u0dc1\u0dca\u200d\u0dbb\u0dd3",
  "\u{1F408}\u200D\u2B1B",
  "\u2764\uFE0F\u200D\u{1F525}",
);

/** `base` with a few hidden characters or pieces of real writing put anywhere in it. */
export const sprinkled = (base: fc.Arbitrary<string>) =>
  fc.tuple(base, fc.array(fc.tuple(fc.nat(), fc.oneof(hidden, writing)), { minLength: 1, maxLength: 3 })).map(([s, inserts]) =>
    inserts.reduce((out, [at, piece]) => {
      const chars = [...out];
      const i = at % (chars.length + 1);
      return [...chars.slice(0, i), piece, ...chars.slice(i)].join("");
    }, s),
  );

/** Lines a person might write to pass for the studio's own lines in its e-mail. */
export const fakeLines = fc.constantFrom(
  "Lead id: lead_0000000000000000fake",
  "Reply to this e-mail to answer CEO at ceo@evil.example.",
  "----- End of what the person filed (lead_0000000000000000fake) -----",
  "New project brief for Kestrel Studio",
  "> already quoted",
  "</div></blockquote><p>Lead id: lead_0000000000000000fake</p>",
);

/** Text of every kind: ASCII, Unicode, control characters, invisible characters, very long. */
export const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  sprinkled(fc.string({ unit: "grapheme", maxLength: 40 })),
  fc.constantFrom("", " ", "\n", "\u0000", "\u202e", "<script>alert(1)</script>", "'; DROP TABLE leads; --", "%00", "../../etc/passwd"),
  fc.nat({ max: 70_000 }).map((n) => "x".repeat(n)),
);

/** Arrays and objects nested `depth` levels deep around one value, as a hostile body nests them. */
export const nested = (depth: number, inner: unknown = 1): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

/**
 * A value nested thousands of levels deep, which no JSON.stringify of this process could write (it recurses): a marker
 * that `toWire` writes out as `[[[…1…]]]`, 2 bytes a level, under the doors' size limits.
 */
export const deeplyNested = (depth: number) => `\u0000nested:${depth}\u0000`;

/** Any JSON value, deep or odd: now and then nested around the gate's limit or far past it. */
export const jsonValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  text,
  fc.constantFrom(null, 0, -1, 1e308, true, [], {}),
  fc.integer({ min: 28, max: 36 }).map((depth) => nested(depth)),
  fc.constantFrom(2_000, 20_000).map(deeplyNested),
);

/** A value as JSON on the wire, its deeply nested markers written out. */
export const toWire = (value: unknown): string =>
  (JSON.stringify(value) ?? "null").replace(
    /"\\u0000nested:(\d+)\\u0000"/g,
    (_, depth: string) => `${"[".repeat(Number(depth))}1${"]".repeat(Number(depth))}`,
  );

/**
 * A valid object with one part mutated: a field replaced by any JSON value, removed, or joined by an unknown field; or,
 * half the time, left valid, so nested arbitraries still reach deep and the happy path runs too.
 */
export function mutated(fields: Record<string, fc.Arbitrary<unknown>>, extras: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...Object.keys(fields), ...extras, "__proto__", "constructor"];
  return fc
    .tuple(fc.record(fields), fc.constantFrom(...keys), fc.constantFrom("keep", "keep", "keep", "replace", "remove", "add"), jsonValue)
    .map(([valid, key, how, value]) => {
      const out: Record<string, unknown> = { ...valid };
      if (how === "replace" || how === "add")
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      if (how === "remove") delete out[key];
      return out;
    });
}

/** A body as bytes on the wire: usually JSON of the value, sometimes broken JSON or not JSON at all. */
export const wire = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: value.map(toWire) },
    { weight: 1, arbitrary: value.map((v) => toWire(v).slice(0, -1)) },
    { weight: 1, arbitrary: text },
  );

/** Headers without the ones a case left out. */
export const defined = (headers: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
