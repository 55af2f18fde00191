import { crudRoutes } from "../../../core/crud/routes";
import { createRouter } from "../../../core/openapi";
import { CreateItemTagSchema, ItemTagListSchema, ItemTagSchema, UpdateItemTagSchema } from "./schemas";
import { createItemTag, deleteItemTag, ITEM_TAG_LIST, listItemTags, updateItemTag } from "./service";

const TAGS = "/merchant/items/tags/";

export const itemTagsRouter = createRouter();

/** Item tags (4.9): list, create, update and delete; a tag has no details route. */
crudRoutes(itemTagsRouter, {
  names: { one: "item tag", many: "item tags" },
  tag: "Item tags",
  collection: TAGS,
  member: `${TAGS}{tag_id}/`,
  param: "tag_id",
  notFound: "item_tag_not_found",
  view: ItemTagSchema,
  list: {
    operationId: "listItemTags",
    summary: "List Item Tags",
    specId: "MI12",
    permission: "can_read_item",
    spec: ITEM_TAG_LIST,
    schema: ItemTagListSchema,
    run: listItemTags,
  },
  create: {
    operationId: "createItemTag",
    summary: "Create Item Tag",
    specId: "MI12",
    permission: "can_write_item",
    body: CreateItemTagSchema,
    run: createItemTag,
  },
  update: {
    operationId: "updateItemTag",
    summary: "Update Item Tag",
    specId: "MI12",
    permission: "can_write_item",
    body: UpdateItemTagSchema,
    run: updateItemTag,
  },
  remove: {
    operationId: "deleteItemTag",
    summary: "Delete Item Tag",
    specId: "MI12",
    permission: "can_write_item",
    run: deleteItemTag,
  },
});
