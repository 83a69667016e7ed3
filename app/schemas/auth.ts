import { toSingleLine } from "~/lib/single-line";
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
  .overwrite(toSingleLine)
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
  // Unbounded here: safeRedirect falls back to the default for an over-long or foreign path.
  redirectTo: z.string().optional(),
});

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: emailWith("Must be a valid email address"),
  password: NewPasswordSchema,
  name: NameSchema,
  redirectTo: z.string().optional(),
});

export const AccountProfileSchema = z.object({
  name: NameSchema,
  email: emailWith("Invalid email address"),
});

const passwordChangeFields = {
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
};

const PASSWORDS_DIFFER = { error: "Passwords do not match", path: ["confirmPassword"] };

export const ChangePasswordSchema = z
  .object(passwordChangeFields)
  .refine((values) => values.newPassword === values.confirmPassword, PASSWORDS_DIFFER);

export type LoginInput = z.infer<typeof LoginSchema>;
export type RegisterInput = z.infer<typeof RegisterSchema>;

export const WRONG_CURRENT_PASSWORD_MESSAGE = "Current password is incorrect";

/**
 * POST /api/auth/change-password: SPEC.md section 7 sends {currentPassword, newPassword}; the
 * confirmation, when not sent, is the new password itself. Same rules and messages as the form.
 */
export const ChangePasswordApiSchema = z
  .object({ ...passwordChangeFields, confirmPassword: passwordChangeFields.confirmPassword.optional() })
  .refine(
    (values) => values.confirmPassword === undefined || values.newPassword === values.confirmPassword,
    PASSWORDS_DIFFER,
  );

/**
 * POST /api/users: SPEC.md section 7's three sign-up payloads in one: {email, username, password}
 * (subscription), with `name` (register), or with `firstName` and `lastName` (expert sign-up), where
 * both names are required (SPEC.md section 5) once either is sent. The expert sign-up has its own
 * e-mail message in SPEC.md, hence the two schemas.
 */
const createUserApiSchema = (emailMessage: string) =>
  z
    .object({
      username: UsernameSchema,
      email: emailWith(emailMessage),
      password: NewPasswordSchema,
      name: NameSchema.optional(),
      firstName: z
        .string()
        .overwrite(toSingleLine)
        .trim()
        .max(50, { error: "First name must be at most 50 characters" })
        .optional(),
      lastName: z
        .string()
        .overwrite(toSingleLine)
        .trim()
        .max(50, { error: "Last name must be at most 50 characters" })
        .optional(),
    })
    .superRefine((value, context) => {
      if (value.firstName === undefined && value.lastName === undefined) return;
      if (!value.firstName)
        context.addIssue({ code: "custom", path: ["firstName"], message: "First name is required" });
      if (!value.lastName)
        context.addIssue({ code: "custom", path: ["lastName"], message: "Last name is required" });
    });

export const CreateUserApiSchema = createUserApiSchema("Must be a valid email address");
/** The expert sign-up's payload (it names `firstName` or `lastName`). */
export const CreateExpertUserApiSchema = createUserApiSchema("Please provide a valid email address");
