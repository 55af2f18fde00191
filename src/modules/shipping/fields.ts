import { z } from "@hono/zod-openapi";

/** Request fields the shipping module's resources share: weights, dimensions, places. */

/** Kilograms with at most 3 decimals → whole grams. */
export const kilograms = (max: number, description: string) =>
  z
    .number()
    .min(0)
    .max(max)
    .transform((kg, ctx) => {
      const grams = Math.round(kg * 1000);
      if (Math.abs(grams - kg * 1000) > 1e-6) {
        ctx.addIssue({ code: "custom", message: "At most 3 decimals (grams)." });
        return z.NEVER;
      }
      return grams;
    })
    .openapi({ type: "number", minimum: 0, maximum: max, description, example: 1.5 });

const centimetres = (description: string) => z.number().int().min(1).max(500).openapi({ description, example: 30 });

/** A package: weight in kg, dimensions in whole centimetres. */
export const PackageInputSchema = z
  .object({
    weight: kilograms(1000, "Kilograms, at most 3 decimals."),
    length: centimetres("Centimetres."),
    width: centimetres("Centimetres."),
    height: centimetres("Centimetres."),
  })
  .strict()
  .openapi("PackageInput");

export const PackageSchema = z
  .object({ weight: z.number(), length: z.number().int(), width: z.number().int(), height: z.number().int() })
  .openapi("Package");

export type PackageInput = z.infer<typeof PackageInputSchema>;

export const toDims = (p: PackageInput) => ({
  weight_g: p.weight,
  length_cm: p.length,
  width_cm: p.width,
  height_cm: p.height,
});

export const packageView = (p: { weight_g: number; length_cm: number; width_cm: number; height_cm: number }) => ({
  weight: p.weight_g / 1000,
  length: p.length_cm,
  width: p.width_cm,
  height: p.height_cm,
});

export const geoId = z.number().int().min(1).max(2_147_483_647);
export const latitude = z.number().min(-90).max(90);
export const longitude = z.number().min(-180).max(180);
export const ids = (max: number, min = 0) =>
  z
    .array(geoId)
    .min(min)
    .max(max)
    .refine((a) => new Set(a).size === a.length, "Ids must not repeat.");
