import { parse, type DefaultTreeAdapterTypes as Html } from "parse5";

/**
 * Declarative WebMCP tools in a page, as a scanner finds them: each `<form>` with `toolname` and `tooldescription`
 * (the WebMCP declarative explainer) becomes one tool whose parameters are the form's named controls. What counts as a
 * parameter follows Chromium 156: hidden, read-only and disabled controls, buttons and file inputs are left out.
 */
export interface DeclaredTool {
  name: string;
  description: string;
  autosubmit: boolean;
  parameters: { name: string; description: string; required: boolean }[];
  /** What keeps it from being a valid tool, or from being usable without guessing; empty when it is both. */
  problems: string[];
}

/** The draft's tool name: 1 to 128 ASCII letters, digits, `_`, `-` and `.`. */
export const toolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/;

const notParameterTypes = new Set(["hidden", "submit", "button", "reset", "image", "file"]);

const attr = (el: Html.Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const has = (el: Html.Element, name: string) => el.attrs.some((a) => a.name === name);
const isElement = (node: Html.ChildNode | Html.ParentNode): node is Html.Element => "tagName" in node;

function elements(root: Html.ParentNode): Html.Element[] {
  const found: Html.Element[] = [];
  const walk = (node: Html.ParentNode) => {
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** A label's text, without the text of the controls inside it (a select's options, a textarea's value), as Chromium reads it. */
const text = (el: Html.Element): string =>
  el.childNodes
    .map((n) =>
      n.nodeName === "#text" ? (n as Html.TextNode).value : isElement(n) && !["select", "textarea"].includes(n.tagName) ? text(n) : "",
    )
    .join("")
    .replace(/\s+/g, " ")
    .trim();

function ancestors(el: Html.Element): Html.Element[] {
  const found: Html.Element[] = [];
  for (let node = el.parentNode; node && isElement(node); node = node.parentNode) found.push(node);
  return found;
}

/** The form a control belongs to: its `form` attribute's, else the form it sits in. */
const ownerForm = (el: Html.Element, byId: Map<string, Html.Element>) =>
  has(el, "form") ? byId.get(attr(el, "form")!) : ancestors(el).find((a) => a.tagName === "form");

const isControl = (el: Html.Element) => ["input", "select", "textarea", "button"].includes(el.tagName);
const inputType = (el: Html.Element) => (el.tagName === "input" ? (attr(el, "type") ?? "text").toLowerCase() : el.tagName);
const isSubmitButton = (el: Html.Element) =>
  (el.tagName === "button" && (attr(el, "type") ?? "submit").toLowerCase() === "submit") ||
  (el.tagName === "input" && ["submit", "image"].includes(inputType(el)));
const isDisabled = (el: Html.Element) => has(el, "disabled") || ancestors(el).some((a) => a.tagName === "fieldset" && has(a, "disabled"));
const isParameter = (el: Html.Element) =>
  el.tagName !== "button" && !notParameterTypes.has(inputType(el)) && !has(el, "readonly") && !isDisabled(el);

/** A parameter's description: `toolparamdescription`, else its label's text, else `aria-description` (Chrome's order). */
function describe(el: Html.Element, all: Html.Element[]): string {
  const id = attr(el, "id");
  const label =
    (id !== undefined ? all.find((l) => l.tagName === "label" && attr(l, "for") === id) : undefined) ??
    ancestors(el).find((a) => a.tagName === "label");
  return (attr(el, "toolparamdescription") ?? "").trim() || (label ? text(label) : "") || (attr(el, "aria-description") ?? "").trim();
}

/** Every form in `html` that declares a tool, with its parameters and its problems. */
export function declaredTools(html: string): DeclaredTool[] {
  const all = elements(parse(html));
  const byId = new Map(all.filter((el) => has(el, "id")).map((el) => [attr(el, "id")!, el]));
  const forms = all.filter((el) => el.tagName === "form" && has(el, "toolname") && has(el, "tooldescription"));
  const seen = new Set<string>();
  return forms.map((form) => {
    const name = attr(form, "toolname")!;
    const description = attr(form, "tooldescription")!.trim();
    const autosubmit = has(form, "toolautosubmit");
    const controls = all.filter((el) => isControl(el) && ownerForm(el, byId) === form);
    const problems: string[] = [];
    if (!toolNamePattern.test(name)) problems.push(`toolname "${name}" is not 1 to 128 ASCII letters, digits, "_", "-" or "."`);
    if (seen.has(name)) problems.push(`toolname "${name}" is declared twice on the page`);
    seen.add(name);
    if (description === "") problems.push(`tool "${name}" has an empty tooldescription`);
    if (!autosubmit && !controls.some(isSubmitButton))
      problems.push(`tool "${name}" has no submit button, which a form without toolautosubmit needs`);
    const parameters = new Map<string, DeclaredTool["parameters"][number]>();
    for (const el of controls.filter(isParameter)) {
      const param = attr(el, "name");
      if (!param) {
        problems.push(`tool "${name}": a <${el.tagName}> without a name is no parameter`);
        continue;
      }
      const known = parameters.get(param);
      const described = describe(el, all);
      parameters.set(param, {
        name: param,
        description: known?.description || described,
        required: (known?.required ?? false) || has(el, "required"),
      });
    }
    for (const p of parameters.values())
      if (p.description === "") problems.push(`tool "${name}": parameter ${p.name} has no toolparamdescription or label`);
    return { name, description, autosubmit, parameters: [...parameters.values()], problems };
  });
}
