/**
 * What the merchant writes of every meals record share, under /merchant/meals/: the permission,
 * why they are beyond the spec, and how their operations are named and described. Each record has
 * the same three operations (create, under its parent when it has one; update and delete by id).
 */

export const MERCHANT_BASE = "/merchant/meals/";
const permission = "can_write_item" as const;
const beyondSpec = "The interface names the meals reads only; these writes manage the data they serve.";

/**
 * The create, update and delete operations of one record, named after the spec's name of it
 * ("Restaurant Branch" → `createRestaurantBranch`, "Create Restaurant Branch").
 * `refs` says what the body may name that must exist; `deleteNote` what makes a delete a 409 and what goes with the
 * record.
 */
export function writeOperations(name: string, notes: { refs?: string; deleteNote: string }) {
  const refs = notes.refs ? ` ${notes.refs}` : "";
  const note = `Needs \`${permission}\`. Makes the store's cached public reads fresh at once.${refs}`;
  const operation = (verb: string, description: string) => ({
    operationId: verb.toLowerCase() + name.replace(/ /g, ""),
    summary: `${verb} ${name}`,
    permission,
    beyondSpec,
    description,
  });
  const one = name.toLowerCase();
  return {
    /** For the responses' descriptions ("The new restaurant branch."). */
    names: { one, many: one.endsWith("y") ? `${one.slice(0, -1)}ies` : `${one}s` },
    create: operation("Create", note),
    update: operation("Update", `Changes the fields given. ${note}`),
    remove: operation("Delete", `Soft delete. ${notes.deleteNote} Needs \`${permission}\`.`),
  };
}
