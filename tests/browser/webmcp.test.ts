import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { declaredTools } from "../../scripts/agent-ready/webmcp.ts";
import { contactFields, honeypot } from "../../src/briefs/form-fields.ts";
import { contactTool, submitLabel } from "../../src/contact/tool.ts";
import { launchChromium } from "../support/browser.ts";

/**
 * The contact form as a declarative WebMCP tool, in Debian's Chromium with the WebMCP switch (Chromium 156 exposes
 * `document.modelContext` only behind it): what the browser itself registers from the page's attributes, with scripting
 * off, and what an agent calling the tool can and cannot do.
 */
const base = inject("baseUrl");
let browser: Browser;

interface RegisteredTool {
  name: string;
  description: string;
  inputSchema: { type: string; properties: Record<string, { description?: string }>; required?: string[] };
}
interface ModelContext {
  getTools(): Promise<RegisteredTool[]>;
  executeTool(tool: RegisteredTool, input: Record<string, unknown>): Promise<unknown>;
}
declare global {
  interface Document {
    modelContext?: ModelContext;
  }
}

const fieldsOnOffer = async () =>
  contactFields(((await (await fetch(`${base}/api/v1/offers`)).json()) as { site_sizes: Parameters<typeof contactFields>[0] }).site_sizes);

/** A page of the contact form in a context with scripting off: the tool must come from the HTML alone. */
async function contactPage(): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${base}/contact`);
  const hasApi = await page.evaluate(() => typeof document.modelContext?.getTools === "function");
  if (!hasApi)
    throw new Error(
      `This Chromium (${browser.version()}) has no document.modelContext even with --enable-features=WebMCP, so what it registers cannot be checked here; set CHROMIUM_PATH to a Chromium with WebMCP (156 or later).`,
    );
  return page;
}

/** What the page registers, as plain data (each entry also holds its window). */
const tools = (page: Page) =>
  page.evaluate(async () =>
    (await document.modelContext!.getTools()).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  );

beforeAll(async () => {
  browser = await launchChromium(["--enable-features=WebMCP"]);
});
afterAll(() => browser?.close());

describe("the contact page's WebMCP tool", () => {
  it("is declared in the HTML, valid by the draft, on a page with no script", async () => {
    const html = await (await fetch(`${base}/contact`)).text();
    const declared = declaredTools(html);
    expect(declared.map((t) => [t.name, t.problems])).toEqual([[contactTool.name, []]]);
    expect(declared[0]!.autosubmit).toBe(false);
    expect(html.match(/<script\b[^>]*>/g) ?? []).toEqual(['<script type="application/ld+json">']);
  });

  it("is the one tool Chromium registers: its name, description, and each field described as the brief schema describes it", async () => {
    const fields = await fieldsOnOffer();
    const page = await contactPage();
    const registered = await tools(page);
    expect(registered).toHaveLength(1);
    const [tool] = registered;
    expect(tool!.name).toBe(contactTool.name);
    expect(tool!.description).toBe(contactTool.description);
    expect(tool!.inputSchema.type).toBe("object");
    expect(Object.keys(tool!.inputSchema.properties)).toEqual(fields.map((f) => f.name));
    for (const f of fields) expect(tool!.inputSchema.properties[f.name]!.description, f.name).toBe(f.description);
    expect(tool!.inputSchema.required).toEqual(["full_name", "company_name", "work_email"]);
    expect(Object.keys(tool!.inputSchema.properties)).not.toContain(honeypot);
    await page.context().close();
  });

  it("declares no autosubmit to the browser (seen over CDP)", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const added: { name: string; annotations?: { autosubmit?: boolean } }[] = [];
    cdp.on("WebMCP.toolsAdded" as never, ((event: { tools: typeof added }) => added.push(...event.tools)) as never);
    await cdp.send("WebMCP.enable" as never);
    await page.goto(`${base}/contact`);
    await expect.poll(() => added.map((t) => t.name)).toEqual([contactTool.name]);
    expect(added[0]!.annotations?.autosubmit ?? false).toBe(false);
    await context.close();
  });

  it("refuses an agent that tries to fill the honeypot: it is no parameter", async () => {
    const page = await contactPage();
    const error = await page.evaluate(async (trap) => {
      const [tool] = await document.modelContext!.getTools();
      return document.modelContext!.executeTool(tool!, { full_name: "Ada Lovelace", [trap]: "https://spam.example" }).then(
        () => "filled",
        (e: unknown) => String(e),
      );
    }, honeypot);
    expect(error).toContain(`parameter "${honeypot}" but there is no such parameter`);
    expect(await page.locator(`#${honeypot}`).inputValue()).toBe("");
    await page.context().close();
  });

  it("fills the form in for the agent, then waits for the person to send it", async () => {
    const page = await contactPage();
    const company = `Analytical Engines ${Date.now()}`;
    await page.evaluate(
      async (input) => {
        const [tool] = await document.modelContext!.getTools();
        // Not awaited: without toolautosubmit the call stays open until the person submits.
        void document.modelContext!.executeTool(tool!, input);
      },
      { full_name: "Ada Lovelace", company_name: company, work_email: "ada@engines.example", site_size: "growth-site" },
    );

    await expect.poll(() => page.locator("#company_name").inputValue()).toBe(company);
    expect(await page.locator("#full_name").inputValue()).toBe("Ada Lovelace");
    expect(await page.locator("#site_size").inputValue()).toBe("growth-site");
    expect(await page.locator(`#${honeypot}`).inputValue()).toBe("");
    // Nothing is sent: the browser hands the person the submit button.
    expect(page.url()).toBe(`${base}/contact`);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(submitLabel);
    expect(await page.locator("form").evaluate((form) => form.matches(":tool-form-active"))).toBe(true);

    await Promise.all([page.waitForURL(`${base}/contact`), page.getByRole("button", { name: submitLabel }).click()]);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Thank you, Ada.");
    await page.context().close();
  });

  it("is the same tool on the answer that shows the form's errors", async () => {
    const page = await contactPage();
    const [before] = await tools(page);
    await page.getByLabel("Company").fill("Half a brief");
    await Promise.all([page.waitForURL(`${base}/contact`), page.getByRole("button", { name: submitLabel }).click()]);
    expect(await page.getByRole("alert").textContent()).toContain("Please check");
    expect(await tools(page)).toEqual([before]);
    await page.context().close();
  });
});
