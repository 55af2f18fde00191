import { z } from "@hono/zod-openapi";
import { nameText } from "../../../core/fields";

export const OrganizationSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Organization");

export type Organization = z.infer<typeof OrganizationSchema>;

export const CreateOrganizationSchema = z
  .object({ name: nameText.openapi({ example: "Acme Trading" }) })
  .strict()
  .openapi("CreateOrganization");

export type CreateOrganization = z.output<typeof CreateOrganizationSchema>;
