import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configTables, setBy, written } from "../../scripts/lib/config-tables.ts";
import { buildFingerprint, type BuildVariables } from "../../scripts/runtime/build.ts";
import { functionVariables, productVariables, resolveConfig } from "../../scripts/runtime/config.ts";
import { ConfigurationError } from "../../src/config/env.ts";
import { aboutSetting, buildSettingNames, settingNames, settingsFrom, type SettingName } from "../../src/config/settings.ts";
import { generateKeySet } from "../../src/tokens/keys.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The first table under the line `heading` of a file: its header, and each row's names and cells after the first. */
async function tableIn(file: string, heading: string) {
  const lines = (await readFile(join(root, file), "utf8")).split("\n");
  const first = lines.findIndex((line, at) => at > lines.indexOf(heading) && line.startsWith("| "));
  const end = lines.findIndex((line, at) => at > first && !line.startsWith("| "));
  const cells = (line: string) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
  const rows = lines
    .slice(first, end)
    .filter((line) => line.startsWith("| `"))
    .map(cells)
    .map(([first, ...rest]) => ({ names: [...first!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]! as SettingName), cells: rest }));
  return { header: cells(lines[first]!), rows };
}
const readmeTable = () => tableIn("README.md", "## Configuration");
const configurationTable = () => tableIn("docs/configuration.md", "## Variables");
const yes = (flag: boolean | undefined) => (flag ? "yes" : "");
const defaultOf = (name: SettingName) => aboutSetting(name).default ?? (aboutSetting(name).kind === "netlify" ? "set by Netlify" : "none");

describe("the settings schema is the one list of variables", () => {
  it("matches the README's configuration table and docs/configuration.md's, row for row, each variable once", async () => {
    for (const { rows } of [await readmeTable(), await configurationTable()]) {
      expect(rows.flatMap((row) => row.names).sort()).toEqual([...settingNames].sort());
    }
  });

  it("is what the README's table shows of each: whether production needs it, its default, what it does", async () => {
    const { header, rows } = await readmeTable();
    expect(header).toEqual(["Variable", "Required in production", "Default", "What it does"]);
    for (const { names, cells } of rows) {
      for (const name of names) {
        const about = aboutSetting(name);
        expect(cells, name).toEqual([yes(about.requiredInProduction), defaultOf(name), about.summary]);
      }
    }
  });

  it("is what docs/configuration.md's table shows of each: its default, whether production needs it, it is secret, the build reads it, who sets it", async () => {
    const { header, rows } = await configurationTable();
    expect(header).toEqual(["Variable", "Default", "Required in production", "Secret", "Read by the build", "Set by"]);
    for (const { names, cells } of rows) {
      for (const name of names) {
        const about = aboutSetting(name);
        expect(cells, name).toEqual([
          defaultOf(name),
          yes(about.requiredInProduction),
          yes(about.secret),
          yes(about.readByBuild),
          setBy[about.kind],
        ]);
      }
    }
  });

  it("is what npm run config-table writes into the README and docs/configuration.md", async () => {
    for (const { file } of configTables) {
      const text = await readFile(join(root, file), "utf8");
      expect(text, `${file}'s configuration table is not what src/config/settings.ts says: run npm run config-table`).toBe(
        written(file, text),
      );
    }
  });

  it("says what each variable does in one short line, and all of it in a section of docs/configuration.md, in the schema's order", async () => {
    for (const name of settingNames) expect(aboutSetting(name).summary.length, name).toBeLessThanOrEqual(90);
    const text = await readFile(join(root, "docs/configuration.md"), "utf8");
    const variables = text.slice(text.indexOf("\n## Variables\n"), text.indexOf("\n## ", text.indexOf("\n## Variables\n") + 1));
    const sections = [...variables.matchAll(/^### (.+)\n\n(.+)/gm)].map((m) => ({
      names: [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]),
      text: m[2],
    }));
    expect(sections.flatMap((section) => section.names)).toEqual(settingNames);
    for (const section of sections) expect(section.text, section.names.join(", ")).toBeTruthy();
  });

  it("matches .env.example: every variable an operator may set, none npm start or Netlify sets", async () => {
    const example = await readFile(join(root, ".env.example"), "utf8");
    const names = [...example.matchAll(/^#? ?([A-Z][A-Z_]+)=/gm)].map((m) => m[1]!);
    const settable = settingNames.filter((name) => ["product", "runtime"].includes(aboutSetting(name).kind));
    expect(sorted(names)).toEqual(sorted(settable));
  });

  it("is what npm start forwards", () => {
    expect(productVariables.every((name) => functionVariables.includes(name))).toBe(true);
  });

  it("leaves NETLIFY_DEV to the one wrapper of netlify dev", async () => {
    const readers: string[] = [];
    for (const folder of ["src", "functions"]) {
      for (const file of await readdir(join(root, folder), { recursive: true })) {
        if (!file.endsWith(".ts")) continue;
        if ((await readFile(join(root, folder, file), "utf8")).includes("NETLIFY_DEV")) readers.push(join(folder, file));
      }
    }
    expect(readers).toEqual(["src/http/netlify-dev.ts"]);
  });
});

describe("the variables the build reads", () => {
  it("rebuild dist/ when one changes, not when another does, nor for the Cal.com stand-in's new key", async () => {
    const noSources = await mkdtemp(join(tmpdir(), "frontdoor-fingerprint-"));
    const fingerprint = (variables: BuildVariables) => buildFingerprint(noSources, "https://studio.example", variables);
    try {
      const none = await fingerprint({});
      const keys = JSON.stringify(await generateKeySet());
      for (const name of buildSettingNames.filter((name) => name !== "URL")) {
        expect(await fingerprint({ [name]: name === "OAUTH_SIGNING_KEYS" ? keys : "1" }), name).not.toBe(none);
      }
      expect(await fingerprint({ LEADS_TO: "leads@studio.example" })).toBe(none);
      const booking = { CAL_EVENT_TYPE_ID: "1", CAL_API_KEY: "cal_local_a" };
      expect(await fingerprint({ ...booking, CAL_API_KEY: "cal_local_b" })).toBe(await fingerprint(booking));
    } finally {
      await rm(noSources, { recursive: true, force: true });
    }
  });
});

describe("settingsFrom", () => {
  it("names the variable and what is wrong with it", () => {
    const settings = settingsFrom((name) => ({ LEADS_EMAIL_DAILY_LIMIT: "many", FRONTDOOR_STORE_TIMEOUT_MS: "-1" })[name]);
    expect(() => settings.get("LEADS_EMAIL_DAILY_LIMIT")).toThrow(ConfigurationError);
    expect(() => settings.get("LEADS_EMAIL_DAILY_LIMIT")).toThrow(
      'LEADS_EMAIL_DAILY_LIMIT must be a whole number of leads a day (0 holds every lead), not "many"',
    );
    expect(() => settings.get("FRONTDOOR_STORE_TIMEOUT_MS")).toThrow(/^FRONTDOOR_STORE_TIMEOUT_MS must be a whole number/);
    expect(() => settings.required("URL")).toThrow("URL is not set: it must be the public base URL of the site");
    expect(() => settings.required("UPSTASH_REDIS_REST_TOKEN")).toThrow(/^UPSTASH_REDIS_REST_TOKEN is not set: production needs/);
  });

  it("gives each setting its type and default, blank as unset", () => {
    const settings = settingsFrom(
      (name) =>
        ({ URL: "https://studio.example//", LEADS_EMAIL_DAILY_LIMIT: " 7 ", LEADS_TO: " ", FRONTDOOR_ALLOW_LOOPBACK_CIMD: "1" })[name],
    );
    expect(settings.required("URL")).toBe("https://studio.example");
    expect(settings.get("LEADS_EMAIL_DAILY_LIMIT")).toBe(7);
    expect(settings.get("LEADS_TO")).toBeUndefined();
    expect(settings.get("FRONTDOOR_ALLOW_LOOPBACK_CIMD")).toBe(true);
    expect(settings.get("POSTMARK_API_URL")).toBe("https://api.postmarkapp.com");
    expect(settingsFrom(() => undefined).get("LEADS_EMAIL_DAILY_LIMIT")).toBe(50);
  });

  it("reads each environment once, and reads again what was unset or wrong (the next request tries again)", () => {
    const values: Record<string, string | undefined> = { URL: "https://a.example" };
    let reads = 0;
    const env = (name: string) => (reads++, values[name]);
    const settings = settingsFrom(env);
    expect(settingsFrom(env)).toBe(settings);
    expect(settings.required("URL")).toBe("https://a.example");
    values.URL = "https://b.example";
    expect(settings.required("URL")).toBe("https://a.example");
    expect(() => settings.required("OAUTH_SIGNING_KEYS")).toThrow(ConfigurationError);
    values.OAUTH_SIGNING_KEYS = "{}";
    expect(settings.required("OAUTH_SIGNING_KEYS")).toBe("{}");
    const before = reads;
    settings.required("URL");
    expect(reads).toBe(before);
  });

  it("stops npm start on a variable it could not run with", () => {
    expect(() => resolveConfig({ PORT: "eighty" }, {})).toThrow(/^PORT must be a port number/);
    expect(resolveConfig({}, { URL: "https://studio.example/" }).baseUrl).toBe("https://studio.example");
  });
});
