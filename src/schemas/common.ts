import { z } from "zod";

/** A stable identifier used in URLs and JSON: lowercase words joined by hyphens. */
export const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single hyphens, e.g. "growth-site"');

/** One line of text: no line breaks, no surrounding spaces. */
export const line = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/[\r\n]/.test(s), "must be a single line");

/** A paragraph of prose. */
export const prose = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

export const httpsUrl = z.url({ protocol: /^https$/, error: "must be an absolute https:// URL" });

export const usd = z.object({
  amount: z.number().int("whole dollars only").positive("must be a positive amount"),
  currency: z.literal("USD", { error: "prices are published in USD" }),
});

/** A closed range of whole numbers, min <= max. */
export const range = (unit: string) =>
  z
    .object({ min: z.number().int().positive(), max: z.number().int().positive() })
    .refine((r) => r.min <= r.max, { message: `min must not exceed max (${unit})`, path: ["max"] });
