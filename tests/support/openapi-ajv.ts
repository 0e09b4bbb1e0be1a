import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { fragmentToken } from "../../src/resources/operations.ts";

/**
 * The answers an OpenAPI 3.1 document promises, checked with ajv: its schemas are JSON Schema 2020-12, compiled in strict
 * mode with every format of ajv-formats on (`uri` is RFC 3986, so a `{` in a fragment fails). The document is added whole
 * under its own id, so each `#/components/...` reference resolves where the document puts it; its top-level fields are
 * declared as a vocabulary ajv does not evaluate.
 */
const documentFields = [
  "openapi",
  "info",
  "jsonSchemaDialect",
  "servers",
  "paths",
  "webhooks",
  "components",
  "security",
  "tags",
  "externalDocs",
];

type Response = { $ref?: string; content?: Record<string, { schema?: unknown }> };
type Operation = { responses?: Record<string, Response> };

export function openApiResponses(document: {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Response> };
}) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary(documentFields);
  ajv.addSchema(document, "openapi.json");
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

  return {
    /**
     * What is wrong with `body` as the answer `status` to `method` `path` (none: valid), or undefined when the document
     * describes no JSON schema for it.
     */
    problems(path: string, body: unknown, status = "200", method = "get"): string[] | undefined {
      const template = templates.find((t) => t.pattern.test(path))?.template;
      const answer = template ? document.paths[template]?.[method]?.responses?.[status] : undefined;
      // A response the document keeps among its components is named by reference (`#/components/responses/<name>`).
      const named = answer?.$ref?.replace("#/components/responses/", "");
      const content = named ? document.components?.responses?.[named]?.content : answer?.content;
      const type = Object.keys(content ?? {}).find((t) => /^application\/(?:[\w.-]+\+)?json(?:;|$)/.test(t));
      if (!template || !type || content![type]!.schema === undefined) return undefined;
      const at = named ? ["components", "responses", named] : ["paths", template, method, "responses", status];
      const pointer = [...at, "content", type, "schema"].map(fragmentToken).join("/");
      let validate = compiled.get(pointer);
      if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `openapi.json#/${pointer}` })));
      return validate(body) ? [] : validate.errors!.map((e) => `${path}${e.instancePath} ${e.message}`);
    },
  };
}
