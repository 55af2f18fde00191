import { z } from "@hono/zod-openapi";
import { ApiError, addFieldError, type FieldErrors } from "../../../core/errors";
import { hundredthsOf, MONEY_MAX } from "../../../core/fields";
import { PAGE_MAX } from "../../../core/list-spec";
import { envelopeSchema, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, TERM_MAX } from "../../../core/listing";
import { ItemCategorySchema } from "../categories/schemas";
import { ITEM_TYPES } from "../tables";

/** The customer app's views of the catalogue: what the browse reads accept and answer. */

const positiveInt = (max: number, description: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "Must be a positive integer.")
    .transform(Number)
    .refine((n) => n <= max, `At most ${max}.`)
    .openapi({ type: "integer", minimum: 1, maximum: max, description });

/** An amount filter, written as a JSON number is and read as a body's amount is (`hundredthsOf`): minor units. */
const majorUnits = (description: string) =>
  z
    .string()
    .regex(/^\d{1,15}(\.\d+)?(e[+-]?\d{1,3})?$/i, "Must be an amount, at most 2 decimals.")
    .transform((text, ctx) => {
      const minor = hundredthsOf(Number(text), { min: 0, max: MONEY_MAX });
      if (typeof minor === "number") return minor;
      ctx.addIssue({ code: "custom", message: minor.message });
      return z.NEVER;
    })
    .openapi({ type: "number", minimum: 0, maximum: MONEY_MAX, description });

export const BROWSE_ORDERS = ["ordering", "price", "created_at", "name_en", "name_ar"] as const;

export const BrowseItemsQuerySchema = z
  .object({
    page: positiveInt(PAGE_MAX, "Page number, from 1.").optional().openapi({ default: 1 }),
    page_size: positiveInt(PAGE_SIZE_MAX, "Results per page.").optional().openapi({ default: PAGE_SIZE_DEFAULT }),
    category_id: positiveInt(Number.MAX_SAFE_INTEGER, "Only items in this item category.").optional(),
    type: z.enum(ITEM_TYPES).optional().openapi({ description: "Only items of this type." }),
    in_stock: z.enum(["true", "false"]).optional().openapi({
      type: "boolean",
      description:
        "`true`: items that have units to sell (the item itself or one of its variants); `false`: the others.",
    }),
    min_price: majorUnits("Only items whose `price` (before discount) is at least this.").optional(),
    max_price: majorUnits("Only items whose `price` (before discount) is at most this.").optional(),
    search: z
      .string()
      .trim()
      .min(1, "Must not be empty.")
      // Code points, as JSON Schema's maxLength counts them; any length up to it is safe (`containsText`).
      .refine((t) => [...t].length <= TERM_MAX, `At most ${TERM_MAX} characters.`)
      .optional()
      .openapi({
        maxLength: TERM_MAX,
        description:
          "Items whose `name_en`, `name_ar` or `sku` contains the term (case-insensitive for Latin letters).",
      }),
    order_by: z
      .enum([...BROWSE_ORDERS, ...BROWSE_ORDERS.map((o) => `-${o}` as const)])
      .optional()
      .openapi({
        default: "ordering",
        description: "`-field` for descending; `price` is the price before discount; ties go to the newest item.",
      }),
  })
  .refine((q) => q.min_price === undefined || q.max_price === undefined || q.min_price <= q.max_price, {
    message: "Must not be above max_price.",
    path: ["min_price"],
  });

export type BrowseItemsQuery = z.infer<typeof BrowseItemsQuerySchema>;

const BROWSE_PARAMS = Object.keys(BrowseItemsQuerySchema.shape);

/**
 * Unknown or repeated parameters are a 400 naming them, as on every list (an ignored one would
 * also make its own cache entry): the schema above only reads the known ones.
 */
export function checkItemsParams(params: URLSearchParams): void {
  const errors: FieldErrors = Object.create(null);
  for (const key of new Set(params.keys())) {
    if (!BROWSE_PARAMS.includes(key))
      addFieldError(errors, key, `Unknown query parameter. Allowed: ${BROWSE_PARAMS.join(", ")}.`);
    else if (params.getAll(key).length > 1) addFieldError(errors, key, "Give this parameter once.");
  }
  if (Object.keys(errors).length) throw ApiError.validation(errors, "Invalid query parameters; see `errors`.");
}

// The merchant's sync fields stay off the public catalogue.
export const CatalogueCategorySchema = ItemCategorySchema.omit({ modified_at: true, is_deleted: true })
  .extend({
    items_count: z.number().int().openapi({ description: "Active items in the category (variants not counted)." }),
  })
  .openapi("CatalogueCategory");

export type CatalogueCategory = z.infer<typeof CatalogueCategorySchema>;

export const CatalogueCategoryListSchema = envelopeSchema(CatalogueCategorySchema, "CatalogueCategoryList");
