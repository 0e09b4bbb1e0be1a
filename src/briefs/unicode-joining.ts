/**
 * The two Unicode properties that the joiner rules of visible-text.ts need and JavaScript's regular expressions do not
 * have: which code points are viramas (Canonical_Combining_Class 9) and how the letters of the cursive scripts join
 * (Joining_Type). Both are copied from the Unicode Character Database of the Unicode version Node 24 carries (17.0:
 * extracted/DerivedCombiningClass.txt and extracted/DerivedJoiningType.txt), as ranges of hexadecimal code points.
 *
 * Tables, not an approximation by script (`[\p{sc=Arabic}&&\p{L}]` on both sides of a ZWNJ): a ZWNJ after a letter
 * that joins nothing after it (alef, dal, reh, zain, waw) changes nothing on screen, so that approximation would let a
 * message written in Persian carry a hidden bit after a quarter of its letters.
 *
 * They cannot silently go stale: tests/unit/visible-text.test.ts derives the viramas from Node's own data (canonical
 * ordering under NFD puts a virama between a class 8 and a class 10 mark) and checks that every letter of a joining
 * script is classified here, so a Node with newer Unicode data names what to add. Until then a new virama or joining
 * letter simply keeps no joiner after it: the rules fail closed.
 */

/** Canonical_Combining_Class=Virama (9). */
const viramaRanges =
  "094D 09CD 0A4D 0ACD 0B4D 0BCD 0C4D 0CCD 0D3B-0D3C 0D4D 0DCA 0E3A 0EBA 0F84 1039-103A 1714-1715 1734 17D2 1A60 1B44 " +
  "1BAA-1BAB 1BF2-1BF3 2D7F A806 A82C A8C4 A953 A9C0 AAF6 ABED 10A3F 11046 11070 1107F 110B9 11133-11134 111C0 11235 " +
  "112EA 1134D 113CE-113D0 11442 114C2 115BF 1163F 116B6 1172B 11839 1193D-1193E 119E0 11A34 11A47 11A99 11C3F " +
  "11D44-11D45 11D97 11F41-11F42 1612F";

/** Joining_Type=Dual_Joining: joins on both sides (Arabic beh, seen, yeh; every N'Ko and Adlam letter). */
const dualJoiningRanges =
  "0620 0626 0628 062A-062E 0633-063F 0641-0647 0649-064A 066E-066F 0678-0687 069A-06BF 06C1-06C2 06CC 06CE 06D0-06D1 " +
  "06FA-06FC 06FF 0712-0714 071A-071D 071F-0727 0729 072B 072D-072E 074E-0758 075C-076A 076D-0770 0772 0775-0777 " +
  "077A-077F 07CA-07EA 0841-0845 0848 084A-0853 0855 0860 0862-0865 0868 0886 0889-088D 088F 08A0-08A9 08AF-08B0 " +
  "08B3-08B8 08BA-08C8 1807 1820-1878 1887-18A8 18AA A840-A871 10AC0-10AC4 10AD3-10AD6 10AD8-10ADC 10ADE-10AE0 " +
  "10AEB-10AEE 10B80 10B82 10B86-10B88 10B8A-10B8B 10B8D 10B90 10BAD-10BAE 10D01-10D21 10D23 10EC3-10EC4 10EC6-10EC7 " +
  "10F30-10F32 10F34-10F44 10F51-10F53 10F70-10F73 10F76-10F81 10FB0 10FB2-10FB3 10FB8 10FBB-10FBC 10FBE-10FBF 10FC1 " +
  "10FC4 10FCA 1E900-1E943";

/** Joining_Type=Right_Joining: joins only to the letter before it (Arabic alef, dal, reh, zain, waw). */
const rightJoiningRanges =
  "0622-0625 0627 0629 062F-0632 0648 0671-0673 0675-0677 0688-0699 06C0 06C3-06CB 06CD 06CF 06D2-06D3 06D5 06EE-06EF " +
  "0710 0715-0719 071E 0728 072A 072C 072F 074D 0759-075B 076B-076C 0771 0773-0774 0778-0779 0840 0846-0847 0849 0854 " +
  "0856-0858 0867 0869-086A 0870-0882 088E 08AA-08AC 08AE 08B1-08B2 08B9 10AC5 10AC7 10AC9-10ACA 10ACE-10AD2 10ADD " +
  "10AE1 10AE4 10AEF 10B81 10B83-10B85 10B89 10B8C 10B8E-10B8F 10B91 10BA9-10BAC 10D22 10EC2 10F33 10F54 10F74-10F75 " +
  "10FB4-10FB6 10FB9-10FBA 10FBD 10FC2-10FC3 10FC9";

/** Joining_Type=Left_Joining: joins only to the letter after it. */
const leftJoiningRanges = "A872 10ACD 10AD7 10D00 10FCB";

/** "0620 062A-062E" → the body of a `v`-flag character class, `\u{620}\u{62A}-\u{62E}`. */
const toClass = (ranges: string) =>
  ranges
    .split(" ")
    .map((range) => range.replace(/[0-9A-F]+/g, (hex) => `\\u{${hex}}`))
    .join("");

/** Bodies of character classes (to be put inside `[...]` of a `u` or `v` regular expression). */
export const viramas = toClass(viramaRanges);
export const dualJoining = toClass(dualJoiningRanges);
export const rightJoining = toClass(rightJoiningRanges);
export const leftJoining = toClass(leftJoiningRanges);

/**
 * Joining_Type=Transparent: what may stand between two joining letters without breaking their join, the marks
 * (`Mn`, `Me`) and the Adlam nasalization mark U+1E94B. Format characters are transparent too, but every one of them is
 * refused anyway.
 */
export const transparent = String.raw`\p{Mn}\p{Me}\u{1E94B}`;
