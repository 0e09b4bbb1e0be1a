import { describe, expect, it } from "vitest";
import { declaredTools, toolNamePattern } from "../../scripts/agent-ready/webmcp.ts";
import { contactFields, honeypot } from "../../src/briefs/form-fields.ts";
import { briefSchema } from "../../src/briefs/schema.ts";
import { contactFormHtml } from "../../src/contact/render.ts";
import { contactTool } from "../../src/contact/tool.ts";

/**
 * The contact form as a declarative WebMCP tool, read as a scanner reads it (scripts/agent-ready/webmcp.ts), and that
 * reader's own rules. tests/browser/webmcp.test.ts checks what Chromium itself registers.
 */
const sizes = [
  { id: "small", name: "Small", pages: { min: 1, max: 5 } },
  { id: "large", name: "Large", pages: { min: 6, max: 50 } },
];
const fields = contactFields(sizes);
const shape = briefSchema(["small", "large"]).shape;

describe("the contact form's tool", () => {
  it("is one valid tool whose parameters are the form's fields, described by the brief schema", () => {
    const tools = declaredTools(contactFormHtml(fields));
    expect(tools).toHaveLength(1);
    const [tool] = tools;
    expect(tool).toMatchObject({ name: contactTool.name, description: contactTool.description, autosubmit: false, problems: [] });
    expect(tool!.parameters).toEqual(
      fields.map((f) => ({ name: f.name, description: shape[f.name as keyof typeof shape].description, required: !!f.required })),
    );
    expect(tool!.parameters.filter((p) => p.required).map((p) => p.name)).toEqual(["full_name", "company_name", "work_email"]);
    expect(toolNamePattern.test(contactTool.name)).toBe(true);
  });

  it("is the same tool on the answer that shows errors, with the values sent", () => {
    const html = contactFormHtml(fields, {
      values: { full_name: "Ada", work_email: "ada@" },
      errors: [{ field: "/work_email", code: "invalid_format", message: "work_email must be an e-mail address" }],
    });
    const [tool, ...more] = declaredTools(html);
    expect(more).toEqual([]);
    expect(tool!.problems).toEqual([]);
    expect(tool!.parameters.map((p) => p.name)).toEqual(fields.map((f) => f.name));
  });

  it("keeps the honeypot a field the form sends, but no parameter", () => {
    const html = contactFormHtml(fields);
    expect(declaredTools(html)[0]!.parameters.map((p) => p.name)).not.toContain(honeypot);
    const trap = new RegExp(`<input id="${honeypot}" name="${honeypot}"([^>]*)>`).exec(html)?.[1];
    // Sent with the form (not disabled, not outside it), a text field to software, but read-only.
    expect(trap).toBeDefined();
    expect(trap).toContain(" readonly");
    expect(trap).not.toMatch(/disabled|type=|form=/);
  });
});

describe("reading declared tools", () => {
  const form = (attrs: string, body: string) => `<form ${attrs}>${body}</form>`;
  const ok = 'toolname="t" tooldescription="Does t."';

  it("finds only forms with both toolname and tooldescription", () => {
    const html = form('toolname="a"', "<button>Go</button>") + form('tooldescription="b"', "") + form(ok, "<button>Go</button>");
    expect(declaredTools(html).map((t) => t.name)).toEqual(["t"]);
  });

  it("leaves out what Chromium leaves out, and finds controls associated by the form attribute", () => {
    const html =
      form(
        `id="f" ${ok}`,
        '<input name="a" toolparamdescription="A" required><input type="hidden" name="h"><input name="r" readonly>' +
          '<input name="d" disabled><fieldset disabled><input name="fd"></fieldset><input type="file" name="file">' +
          '<label>Bee <select name="b"><option>1</option></select></label><input type="submit" name="s"><button name="x">Go</button>',
      ) + '<label for="o">Outside</label><input id="o" name="o" form="f">';
    const [tool] = declaredTools(html);
    expect(tool!.parameters).toEqual([
      { name: "a", description: "A", required: true },
      { name: "b", description: "Bee", required: false },
      { name: "o", description: "Outside", required: false },
    ]);
    expect(tool!.problems).toEqual([]);
  });

  it("names every problem", () => {
    const html =
      form('toolname="bad name" tooldescription=" "', '<input name="x"><input toolparamdescription="no name">') +
      form(ok, "<button>Go</button>") +
      form(ok, '<button type="button">No</button>');
    const [bad, , twice] = declaredTools(html);
    expect(bad!.problems).toEqual([
      'toolname "bad name" is not 1 to 128 ASCII letters, digits, "_", "-" or "."',
      'tool "bad name" has an empty tooldescription',
      'tool "bad name" has no submit button, which a form without toolautosubmit needs',
      'tool "bad name": a <input> without a name is no parameter',
      'tool "bad name": parameter x has no toolparamdescription or label',
    ]);
    expect(twice!.problems).toEqual([
      'toolname "t" is declared twice on the page',
      'tool "t" has no submit button, which a form without toolautosubmit needs',
    ]);
    expect(declaredTools(form(`${ok} toolautosubmit`, '<input name="q" aria-description="Query">'))[0]).toMatchObject({
      autosubmit: true,
      parameters: [{ name: "q", description: "Query", required: false }],
      problems: [],
    });
    expect(toolNamePattern.test("x".repeat(129))).toBe(false);
    expect(toolNamePattern.test("a.b-c_9")).toBe(true);
  });
});
