import { z } from "zod";

/**
 * One entry of `errors` in an invalid_brief problem: where (a JSON Pointer into the request body), a stable code to
 * branch on, and a message for people. The OpenAPI document and the developer page are generated from this schema.
 */
export const fieldErrorSchema = z
  .object({
    field: z.string().describe("A JSON Pointer (RFC 6901) to the field in the request body, e.g. /work_email."),
    code: z
      .enum(["required", "unknown_field", "invalid_type", "invalid_value", "too_short", "too_long", "invalid_format"])
      .describe("Stable; safe to branch on."),
    message: z.string().describe("What is wrong, for people."),
  })
  .describe("One offending field of an invalid brief.");

export type FieldError = z.infer<typeof fieldErrorSchema>;

const pointer = (path: PropertyKey[]) => `/${path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

function toFieldErrors(issue: z.core.$ZodIssue, body: Record<string, unknown>, noun: string): FieldError[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      field: pointer([...issue.path, key]),
      code: "unknown_field",
      message: `${key} is not a ${noun} field`,
    }));
  }
  const field = pointer(issue.path);
  const name = issue.path.map(String).join(".");
  const absent = issue.path.length === 1 && !Object.hasOwn(body, issue.path[0] as PropertyKey);
  if (issue.code === "invalid_type" && absent) return [{ field, code: "required", message: `${name} is required` }];
  const code: FieldError["code"] =
    issue.code === "invalid_type"
      ? "invalid_type"
      : issue.code === "too_small"
        ? "too_short"
        : issue.code === "too_big"
          ? "too_long"
          : issue.code === "invalid_value"
            ? "invalid_value"
            : "invalid_format";
  return [{ field, code, message: issue.message }];
}

/** Every offending field of a body a schema refused, one entry per field (the first problem found is the one to fix first). */
export function fieldErrorsOf(error: z.ZodError, body: Record<string, unknown>, noun: string): FieldError[] {
  const errors = error.issues.flatMap((issue) => toFieldErrors(issue, body, noun));
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}
