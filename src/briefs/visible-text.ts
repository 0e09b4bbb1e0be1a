import { dualJoining, leftJoining, rightJoining, transparent, viramas } from "./unicode-joining.ts";

/**
 * What a brief's text may carry: only what a person reading the studio's e-mail can see. Text that a person cannot see
 * can still be read by software, an AI assistant in the inbox among it, and can carry instructions for it: tag
 * characters spell ASCII invisibly, variation selectors smuggle a byte each behind an emoji, fillers and joiners hide
 * whole words, a joiner between two Latin letters is one bit. The validator (schema.ts) refuses such text in every field;
 * the e-mail (mail.ts) shows whatever of it reaches it anyway (a lead recorded before these rules) as visible code
 * points.
 */

/** Control characters other than tab, line feed and carriage return, and the Unicode line and paragraph separators. */
export const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029]/;

/**
 * U+FFFD, which a decoder writes where it met bytes that were not UTF-8. The core refuses such a body itself, but a
 * runtime that decodes the body before the function sees it (netlify dev, and Netlify for a body it does not hand on
 * as base64) delivers text with U+FFFD in place of what was sent: a name or an address with letters lost.
 */
export const replacementCharacter = "\uFFFD";

/**
 * Spaces of every width but the plain one (no-break, thin, ideographic and the rest, Unicode's `Zs`): in the e-mail each
 * looks like a space or a little wider, so a message's words could carry bits in which one separates them. The message
 * keeps them as plain spaces, and no line ends in spaces or tabs.
 */
export const spaceOfAnyWidth = /[\p{Zs}--\x20]/gv;

/**
 * Invisible characters where some writing needs them, and only there, one at a time.
 *
 * ZWNJ and ZWJ (U+200C, U+200D) follow IDNA's CONTEXTJ rules (RFC 5892, Appendix A.1 and A.2), where a joiner is
 * allowed only where it changes how the text is drawn:
 * - either joiner right after a virama (Hindi "क्‍ष", Sinhala "ශ්‍රී", Malayalam chillu "ന്‍": a half form, a touching
 *   or a dead consonant instead of the conjunct);
 * - ZWNJ between two letters that would otherwise join (Joining_Type dual or left joining before it, dual or right
 *   joining after it, marks allowed in between: Persian "می‌خواهم"), where it breaks the join;
 * and, beyond IDNA, for text that is no domain name:
 * - ZWJ between Bengali or Assamese RA and a virama (ya-phala after ra, "র‍্যাব", the Unicode Standard's own spelling);
 * - ZWJ inside an emoji ZWJ sequence: after an emoji, a skin tone or an emoji's VS16, before an emoji (👩🏽‍💻, 🏳️‍🌈; every
 *   RGI sequence of Unicode 17 is of that shape).
 * Anywhere else (between Latin, Greek, Cyrillic or Han letters, between digits, after a right-joining Arabic letter such
 * as alef or reh, whose shape does not change) a joiner draws nothing and is refused. JavaScript's regular expressions
 * have no Canonical_Combining_Class or Joining_Type property, so the viramas and the joining letters are tables copied
 * from Unicode's data (unicode-joining.ts), checked by the tests against Node's own data and scripts. What the rules
 * still let through: a joiner after a virama in a script that draws the same either way (Tamil's pulli), one per virama,
 * as IDNA does; a ZWJ between two emoji that form no sequence, one per pair of visible emoji.
 *
 * The other selectors:
 * - the emoji and text presentation selectors VS15 and VS16 (U+FE0E, U+FE0F) right after a character that has an emoji
 *   form (❤️, 1️⃣);
 * - Mongolian free variation selectors (U+180B to U+180D, U+180F) right after a Mongolian letter;
 * - tag characters only as the three subdivision flags of the Unicode emoji set (England, Scotland, Wales), whose tags
 *   are fixed and spell nothing else.
 */
const needed = [
  String.raw`(?<=[${viramas}])[\u200C\u200D]`,
  String.raw`(?<=[${dualJoining}${leftJoining}][${transparent}]*)\u200C(?=[${transparent}]*[${dualJoining}${rightJoining}])`,
  String.raw`(?<=[\u09B0\u09F0])\u200D(?=\u09CD)`,
  String.raw`(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}]\uFE0F?)\u200D(?=\p{Extended_Pictographic})`,
  String.raw`(?<=\p{Emoji})[\uFE0E\uFE0F]`,
  String.raw`(?<=[\p{sc=Mongolian}&&\p{L}])[\u180B-\u180D\u180F]`,
  String.raw`\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}`,
].join("|");

/**
 * Everything nobody sees: the default ignorable code points (joiners, bidirectional marks and controls, variation
 * selectors, fillers, the grapheme joiner, tag characters, the reserved invisible ranges), every format character (`Cf`:
 * interlinear annotation, prepended concatenation marks, invisible operators and the rest), and the characters that
 * are drawn as nothing although Unicode gives them no such property, listed by name: the braille pattern blank U+2800,
 * the musical null notehead U+1D159, the Egyptian hieroglyph mirroring control U+13440 and the Khitan small script
 * filler U+16FE4.
 */
const invisible = String.raw`\p{Default_Ignorable_Code_Point}\p{Cf}\u2800\u{1D159}\u{13440}\u{16FE4}`;

/**
 * Code points that are no text: private use (`Co`: no agreed glyph, a box or nothing outside the one font that defines
 * it, and 137,468 of them to spell with), noncharacters and unassigned code points (`Cn`, in the Unicode version this Node
 * carries), and lone surrogates (`Cs`: a string that is not well-formed, `String.prototype.isWellFormed`, which no
 * e-mail can carry as written).
 */
const notTextClass = String.raw`\p{Co}\p{Cn}\p{Cs}`;

const notText = new RegExp(`[${notTextClass}]`, "v");
/** A match whose first group is set is one of the `needed` uses above and stays. */
const invisibleOrNeeded = new RegExp(`(${needed})|[${invisible}]`, "gv");
const unseenOrNeeded = new RegExp(`(${needed})|[${invisible}${notTextClass}]`, "gv");

/** `U+E0041` */
export const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first code point of `text` that is no text (private use, a noncharacter, unassigned, a lone surrogate), as `U+XXXX`. */
export function notTextCharacter(text: string): string | undefined {
  const match = notText.exec(text);
  return match ? codePoint(match[0]) : undefined;
}

/** The first character of `text` that nobody would see, as `U+XXXX`; undefined when it has none. */
export function invisibleCharacter(text: string): string | undefined {
  for (const match of text.matchAll(invisibleOrNeeded)) if (match[1] === undefined) return codePoint(match[0]);
  return undefined;
}

/**
 * `text` with every character nobody would see and every code point that is no text written as its code point,
 * `[U+E0041]`; what writing needs stays.
 */
export const showInvisible = (text: string) =>
  text.replace(unseenOrNeeded, (match: string, needed?: string) => (needed === undefined ? `[${codePoint(match)}]` : match));
