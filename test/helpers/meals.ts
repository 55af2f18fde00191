import { mealsDemo } from "../../scripts/meals-demo";
import { ensureTenant, shardFor } from "./factories";
import { deref, openApiDocument, validate } from "./openapi";

/**
 * The demo meals data (the seed's) for a test tenant, with ids from `base`: two restaurants, their
 * menus, products and combo, and two plans (Balanced 30: 30 days × 5 categories × 10 options).
 */
export async function seedMealsFor(appId: number, base: number) {
  await ensureTenant(appId);
  const rows = mealsDemo(appId, base);
  const statements = rows.map(({ table, row }) =>
    shardFor(appId)
      .prepare(
        `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row)
          .map(() => "?")
          .join(", ")})`,
      )
      .bind(...Object.values(row)),
  );
  for (let i = 0; i < statements.length; i += 500) await shardFor(appId).batch(statements.slice(i, i + 500));
  const id = (n: number) => base + n;
  return {
    green: id(1),
    kabsa: id(2),
    greenMenu: id(1),
    kabsaMenu: id(2),
    balanced: id(1),
    keto: id(2),
    balancedMonth: id(1),
    balanced20: id(2),
    ketoWeek: id(3),
    oatBowl: id(1),
    walletCredit: id(61),
    lambKabsa: id(72),
    combo: id(1),
    tags: [id(1), id(2), id(3)],
    id,
  };
}

const doc = await openApiDocument();

/** Errors of `body` against the 200 schema of the operation, as the document declares it. */
export function schemaErrors(operationId: string, body: unknown, status = "200"): string[] {
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (op.operationId === operationId)
        return validate(deref(doc, op.responses[status]!.content!["application/json"]!.schema), body);
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** Keys the spec lists for a resource and the object lacks. */
export const missingKeys = (obj: object, keys: string[]) => keys.filter((k) => !(k in obj));

export const AUDIT = ["app_id", "created_at", "modified_at", "deleted_at", "is_deleted", "ordering"];
