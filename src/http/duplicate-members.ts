/**
 * The first member name given twice in one object of a valid JSON text, or undefined. JSON.parse keeps the last value
 * of a repeated name, so `{"dry_run": true, "dry_run": false}` would mean whatever the reader's parser picks; I-JSON
 * (RFC 7493 §2.3) says names must be unique, and a body that repeats one is refused. The text has already parsed, so
 * this only walks it: strings (keys where an object expects one), and the brackets around them, without recursion.
 */
export function duplicateMember(text: string): string | undefined {
  // One entry per open object (its names so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let expectsName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (expectsName) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        const names = open.at(-1)!;
        if (names.has(name)) return name;
        names.add(name);
        expectsName = false;
      }
      i = end;
    } else if (c === "{") {
      open.push(new Set());
      expectsName = true;
    } else if (c === "[") {
      open.push(null);
    } else if (c === "}" || c === "]") {
      open.pop();
      expectsName = false;
    } else if (c === ",") {
      expectsName = open.at(-1) != null;
    }
  }
  return undefined;
}
