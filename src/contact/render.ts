import { pagePaths } from "../paths.ts";
import type { FieldError } from "../briefs/validate.ts";
import { escapeHtml as e } from "../site/function-page.ts";
import { honeypot, type FormField } from "../briefs/form-fields.ts";
import { contactTool, submitLabel } from "./tool.ts";

/** A message for a person: the form's label instead of the API's field name. */
export function personMessage(field: FormField | undefined, error: FieldError): string {
  const label = field?.label ?? error.field.slice(1);
  if (error.code === "required") return `Enter ${label.toLowerCase()}.`;
  if (error.code === "too_long") return `${label} is too long: at most ${field?.maxLength ?? ""} characters.`.replace(" : at", ": at");
  if (error.code === "too_short") return `Enter ${label.toLowerCase()}.`;
  return error.message.replace(new RegExp(`^${error.field.slice(1)}\\b`), label);
}

function control(f: FormField, value: string, describedBy: string, invalid: boolean): string {
  const common = `id="${f.name}" name="${f.name}"${f.required ? " required" : ""}${f.maxLength ? ` maxlength="${f.maxLength}"` : ""}${f.autocomplete ? ` autocomplete="${f.autocomplete}"` : ""}${describedBy ? ` aria-describedby="${describedBy}"` : ""}${invalid ? ' aria-invalid="true"' : ""} toolparamdescription="${e(f.description)}"`;
  if (f.kind === "textarea") return `<textarea ${common}>${e(value)}</textarea>`;
  if (f.kind === "select") {
    const options = (f.options ?? [])
      .map(([v, label]) => `<option value="${e(v)}"${v === value ? " selected" : ""}>${e(label)}</option>`)
      .join("");
    return `<select ${common}>${options}</select>`;
  }
  return `<input ${common}${f.kind === "email" ? ' type="email"' : ""} value="${e(value)}">`;
}

/**
 * The contact form as HTML, for the static contact page and for the function's answers alike: filled in with what
 * was sent, an error summary at the top and each error next to its field. It works without JavaScript, and is a
 * declarative WebMCP tool (tool.ts) whose parameters are the brief's fields, described as the brief schema describes them.
 */
export function contactFormHtml(
  fields: FormField[],
  { values = {}, errors = [] }: { values?: Record<string, string>; errors?: FieldError[] } = {},
): string {
  const byField = new Map(errors.map((err) => [err.field.slice(1), err]));
  const summary =
    errors.length === 0
      ? ""
      : `<div class="error-summary" role="alert" tabindex="-1" id="form-errors"><h3>Please check ${errors.length === 1 ? "this field" : `these ${errors.length} fields`}</h3><ul>${errors
          .map((err) => {
            const f = fields.find((x) => x.name === err.field.slice(1));
            return `<li><a href="#${f ? f.name : "form-errors"}">${e(personMessage(f, err))}</a></li>`;
          })
          .join("")}</ul></div>`;
  const rows = fields.map((f) => {
    const error = byField.get(f.name);
    const ids = [f.hint ? `${f.name}-hint` : "", error ? `${f.name}-error` : ""].filter(Boolean).join(" ");
    return `<div class="field${error ? " has-error" : ""}"><label for="${f.name}">${e(f.label)}${f.required ? "" : ' <span class="muted">(optional)</span>'}</label>${
      f.hint ? `<span class="hint" id="${f.name}-hint">${e(f.hint)}</span>` : ""
    }${error ? `<span class="field-error" id="${f.name}-error">${e(personMessage(f, error))}</span>` : ""}${control(f, values[f.name] ?? "", ids, !!error)}</div>`;
  });
  // readonly: still sent with the form, but a person (or the browser's autofill) cannot type into it, and WebMCP leaves
  // read-only controls out of the tool's parameters (docs/decisions.md).
  const trap = `<div class="trap" aria-hidden="true"><label for="${honeypot}">Leave this empty</label><input id="${honeypot}" name="${honeypot}" tabindex="-1" autocomplete="off" readonly></div>`;
  const tool = `toolname="${e(contactTool.name)}" tooldescription="${e(contactTool.description)}"`;
  return `${summary}<form class="form" method="post" action="${pagePaths.contact}" novalidate ${tool}>${rows.join("")}${trap}<button class="button primary" type="submit">${e(submitLabel)}</button></form>`;
}
