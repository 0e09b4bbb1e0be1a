import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";

/**
 * The MCP Registry's server.json schema (2025-12-11), the copy in tests/schemas/mcp-registry/ with its licence and
 * source, and what it finds wrong with a document (none: valid).
 */
export const serverJsonSchema = JSON.parse(await readFile(new URL("../schemas/mcp-registry/2025-12-11.json", import.meta.url), "utf8")) as {
  $id: string;
};
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(serverJsonSchema);
export const serverJsonProblems = (document: unknown) =>
  validate(document) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);

/** The public key the test runtime's build proves its domain with (an Ed25519 key made for the tests, never used). */
export const registryTestPublicKey = "bVB/IJ1j9m3z7nGs5xTDLknP6zmQjfX+gZG4iNmPmOc=";
