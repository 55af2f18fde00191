import { z } from "@hono/zod-openapi";
import { NAME_MAX } from "../../../core/fields";
import { CustomerSchema } from "../records/schemas";
import { CUSTOMER_LANGS } from "../tables";
import { OTP_RESEND_AFTER_S, OTP_TTL_S } from "./otp";
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from "./tokens";

const countryCode = z
  .string()
  .regex(/^\+?\d{1,4}$/, 'Must be a calling code, digits only ("966").')
  .openapi({ description: "The calling code of the mobile number's country.", example: "966" });

const mobileNumber = z
  .string()
  .trim()
  .min(4, "Must be a phone number.")
  .max(24)
  .regex(/^[\d\s+().-]+$/, "Must be a phone number: digits, optionally with + and spaces.")
  .openapi({
    description: 'A mobile number of that country in any form ("0534501056", "+966 53 450 1056").',
    example: "0534501056",
  });

const otp = z
  .string()
  .regex(/^\d{4,8}$/, "Must be the code of 4 to 8 digits the SMS gave.")
  .openapi({ description: "The code the SMS gave (6 digits unless the store set another length).", example: "123456" });

const phone = { country_code: countryCode, mobile_number: mobileNumber };

export const RegisterSchema = z
  .object({
    ...phone,
    name: z.string().trim().min(1, "Required; must not be empty.").max(NAME_MAX).openapi({ example: "Sara" }),
    email: z.string().trim().max(254).email().optional().openapi({ example: "sara@example.com" }),
    lang: z.enum(CUSTOMER_LANGS).optional().openapi({ description: "The customer's language; `ar` when not given." }),
  })
  .strict()
  .openapi("RegisterCustomer");

export const RequestOtpSchema = z.object(phone).strict().openapi("RequestOtp");

export const VerifyOtpSchema = z
  .object({ ...phone, otp })
  .strict()
  .openapi("VerifyOtp", { description: "The number and the code it was sent." });

const refreshToken = z
  .string()
  .max(200)
  .regex(/^crt_[A-Za-z0-9_-]{20,100}$/, "Must be a refresh token (`crt_…`) this API issued.")
  .openapi({ example: "crt_3q2-7wEXAMPLEc0K9mBq1sVx8rT4uYzA5nD6fG7hJ8k" });

export const RefreshSchema = z.object({ refresh_token: refreshToken }).strict().openapi("RefreshAccessToken");

export const LogoutSchema = z.object({ refresh_token: refreshToken }).strict().openapi("CustomerLogout");

export const CodeSentSchema = z
  .object({
    expires_in: z.number().int().openapi({ description: "Seconds the code lives.", example: OTP_TTL_S }),
    resend_after: z
      .number()
      .int()
      .openapi({ description: "Seconds before another code may be requested.", example: OTP_RESEND_AFTER_S }),
  })
  .openapi("OtpSent", {
    description:
      "The same answer whether or not the number is registered: whoever owns the number gets the SMS, when one is due.",
  });

const pairFields = {
  access_token: z.string().openapi({ description: "A JWT for the customer routes; 15 minutes." }),
  refresh_token: z.string().openapi({ description: "Opaque; 30 days; replaced on every refresh.", example: "crt_…" }),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().openapi({ example: ACCESS_TOKEN_TTL_S }),
  refresh_expires_in: z.number().int().openapi({ example: REFRESH_TOKEN_TTL_S }),
};

export const TokenPairSchema = z.object(pairFields).openapi("CustomerTokenPair");

export const LoginSchema = z
  .object({ ...pairFields, customer: CustomerSchema })
  .openapi("CustomerLogin", { description: "The token pair and the customer it is for." });

export type Register = z.infer<typeof RegisterSchema>;
export type VerifyOtp = z.infer<typeof VerifyOtpSchema>;
