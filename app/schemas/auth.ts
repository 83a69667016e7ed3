import * as z from "~/lib/zod";

/**
 * Account forms, shared by browser and server, with SPEC.md's exact messages.
 * Forms are parsed with conform, which turns empty fields into undefined: the `error` given to
 * z.string() is therefore the "required" message.
 */

const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

export const UsernameSchema = z
  .string({ error: "Username is required" })
  .trim()
  .min(3, { error: "Username must be at least 3 characters" })
  .max(30, { error: "Username must be at most 30 characters" })
  .regex(USERNAME_PATTERN, {
    error: "Username can only contain letters, numbers, dots, hyphens and underscores",
  });

export const NewPasswordSchema = z
  .string({ error: "Password is required" })
  .min(6, { error: "Password must be at least 6 characters" })
  .max(128, { error: "Password must be at most 128 characters" });

const emailWith = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(254, { error: message })
    .pipe(z.email({ error: message }));

const NameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, { error: "Name is required" })
  .max(100, { error: "Name must be at most 100 characters" });

export const LoginSchema = z.object({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(1, { error: "Username is required" })
    .max(100, { error: "Invalid username or password" }),
  password: z
    .string({ error: "Password is required" })
    .min(1, { error: "Password is required" })
    .max(128, { error: "Invalid username or password" }),
  redirectTo: z.string().max(2000).optional(),
});

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: emailWith("Must be a valid email address"),
  password: NewPasswordSchema,
  name: NameSchema,
  redirectTo: z.string().max(2000).optional(),
});

export const AccountProfileSchema = z.object({
  name: NameSchema,
  email: emailWith("Invalid email address"),
});

export const ChangePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "Current password is required" })
      .min(1, { error: "Current password is required" })
      .max(128, { error: "Current password is incorrect" }),
    newPassword: z
      .string({ error: "New password must be at least 8 characters" })
      .min(8, { error: "New password must be at least 8 characters" })
      .max(128, { error: "New password must be at most 128 characters" }),
    confirmPassword: z
      .string({ error: "Confirm password is required" })
      .min(8, { error: "Confirm password is required" })
      .max(128, { error: "Passwords do not match" }),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    error: "Passwords do not match",
    path: ["confirmPassword"],
  });

export type LoginInput = z.infer<typeof LoginSchema>;
export type RegisterInput = z.infer<typeof RegisterSchema>;
