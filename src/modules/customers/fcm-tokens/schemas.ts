import { z } from "@hono/zod-openapi";
import { FCM_PLATFORMS } from "../tables";

/** What FCM registration tokens are made of (base64url and `:`), with room for longer ones. */
const TOKEN = /^[A-Za-z0-9:_.-]{20,4096}$/;
const TOKEN_EXAMPLE = "dGVzdC1kZXZpY2UtdG9rZW4:APA91bHun4MxP5egoKMwt2KZFBaFUH";

export const fcmToken = z
  .string()
  .regex(TOKEN, "Must be an FCM registration token: 20 to 4096 letters, digits and : _ . -")
  .openapi({
    description: "The device's FCM registration token, as the Firebase SDK gives it.",
    example: TOKEN_EXAMPLE,
  });

export const FcmTokenSchema = z
  .object({
    id: z.number().int(),
    token: z.string(),
    platform: z.enum(FCM_PLATFORMS),
    is_active: z.boolean(),
    created_at: z.string().openapi({ format: "date-time" }),
    modified_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("FcmToken");

export type FcmToken = z.infer<typeof FcmTokenSchema>;

export const RegisterFcmTokenSchema = z
  .object({ token: fcmToken, platform: z.enum(FCM_PLATFORMS) })
  .strict()
  .openapi("RegisterFcmToken");

export type RegisterFcmToken = z.infer<typeof RegisterFcmTokenSchema>;

export const FcmTokenParam = z.object({
  token: fcmToken.openapi({ param: { name: "token", in: "path" } }),
});
