import { isReservedCustomUrl } from "~/lib/reserved-urls";
import { toSingleLine } from "~/lib/single-line";
import * as z from "~/lib/zod";
import { NewPasswordSchema, UsernameSchema } from "./auth";
import { recordId } from "./ids";

/**
 * The expert forms, shared by browser and server, with SPEC.md's messages (section 5). The sign-up
 * wizard and the profile edit form have different rules on purpose (SPEC.md: "Both apply in their own
 * screen"). Prices are typed in dollars and parsed to integer cents; anything non-numeric becomes 0
 * and is then refused by the minimum, as SPEC.md says.
 */

export const EXPERT_LIMITS = {
  bioMaxLength: 500,
  signupBioMinLength: 50,
  editBioMinLength: 10,
  consultingTopicsMinLength: 5,
  consultingTopicsMaxLength: 300,
  customUrlMinLength: 3,
  customUrlMaxLength: 50,
  maxExpertiseCategories: 3,
  textMaxLength: 100,
  qualificationsMaxLength: 1000,
  /** Sign-up minimums (dollars in SPEC.md, cents here). */
  signupQuestionRateMinCents: 500,
  signupSessionPriceMinCents: 3000,
  /** Edit-form minimums. */
  editQuestionRateMinCents: 500,
  editSessionPriceMinCents: 1000,
  /** A ceiling nobody meets by accident; keeps a typo like 50000000 out of checkout. */
  priceMaxCents: 1_000_000,
  /** SPEC.md's sign-up defaults: $10 a question, $50 a session. */
  defaultQuestionRateDollars: 10,
  defaultSessionPriceDollars: 50,
} as const;

export const CUSTOM_URL_TAKEN_MESSAGE = "This custom URL is already taken. Please choose another one.";
export const CUSTOM_URL_RESERVED_MESSAGE = "This custom URL is reserved. Please choose another one.";
export const MAX_CATEGORIES_TITLE = "Maximum categories reached";
export const MAX_CATEGORIES_MESSAGE = "You can select up to 3 categories";
export const EXPERTISE_REQUIRED_MESSAGE = "Please list at least one area of expertise";
export const UNKNOWN_CATEGORY_MESSAGE = "Please choose categories from the list";

/** What the custom-URL box keeps as the person types (SPEC.md: "filtered live", lower-cased). */
export function filterCustomUrlInput(value: string, { allowUnderscore }: { allowUnderscore: boolean }) {
  const lowered = value.toLowerCase();
  return allowUnderscore ? lowered.replace(/[^a-z0-9_-]/g, "") : lowered.replace(/[^a-z0-9-]/g, "");
}

const requiredName = (message: string) =>
  z.string({ error: message }).overwrite(toSingleLine).trim().min(1, { error: message });

const emailWith = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(254, { error: message })
    .pipe(z.email({ error: message }));

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .optional();

/** A one-line field shown on the public profile and cards: as one line, like a name. */
const optionalLine = (label: string, max: number) =>
  z
    .string()
    .overwrite(toSingleLine)
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .optional();

/** Digits with an optional decimal point: nothing else is a price ("49,99" is not 49 dollars). */
const PLAIN_DOLLARS = /^(\d+\.?\d*|\.\d+)$/;

/**
 * A dollars value typed by a person ("12.5", "abc") as cents; non-numeric becomes 0 (SPEC.md), and
 * so does anything that is not a plain decimal number: a comma, a currency sign, trailing text.
 */
export function dollarsToCents(input: string | number): number {
  const text = typeof input === "string" ? input.trim() : "";
  const dollars = typeof input === "number" ? input : PLAIN_DOLLARS.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(dollars)) return 0;
  return Math.round(dollars * 100);
}

/** A price typed in dollars ("12.50", "abc") as integer cents, with a minimum and its message. */
const dollarsAsCents = (minCents: number, message: string) =>
  z.preprocess(
    (value) => {
      const typed = typeof value === "string" || typeof value === "number" ? value : "";
      // Read as dollarsToCents reads it, so "1e3" and "1e9" are both non-numeric; but a plain number
      // past the ceiling (even too many digits for a double) is a price that is too high.
      const text = typeof typed === "string" ? typed.trim() : "";
      const asNumber = typeof typed === "number" ? typed : PLAIN_DOLLARS.test(text) ? Number(text) : 0;
      return asNumber * 100 > EXPERT_LIMITS.priceMaxCents ? Number.MAX_VALUE : dollarsToCents(typed);
    },
    z
      .number()
      // First, and alone: a price past any integer would otherwise get zod's own "expected int" text.
      .max(EXPERT_LIMITS.priceMaxCents, { error: "Please enter a price of at most $10,000.00", abort: true })
      .min(minCents, { error: message })
      .int(),
  );

/**
 * The custom URL: 3 to 50 characters, not a page of the site, with a letter: not only digits
 * (/expert/{id} and /expert/{customUrl} share a path, so "123" would shadow expert 123), nor only
 * hyphens and underscores ("/---" names nobody). Empty means "no custom URL".
 */
const customUrlBase = (pattern: RegExp, patternMessage: string, keep?: string | null) =>
  z
    .string()
    .trim()
    .max(EXPERT_LIMITS.customUrlMaxLength, {
      error: `Custom URL must be at most ${EXPERT_LIMITS.customUrlMaxLength} characters`,
      abort: true,
    })
    .min(EXPERT_LIMITS.customUrlMinLength, {
      error: `Custom URL must be at least ${EXPERT_LIMITS.customUrlMinLength} characters`,
      abort: true,
    })
    .refine((value) => value === keep || pattern.test(value), { error: patternMessage, abort: true })
    .refine((value) => value === keep || /[a-z]/i.test(value), {
      error: "Custom URL must contain at least one letter",
      abort: true,
    })
    .refine((value) => value === keep || !isReservedCustomUrl(value), {
      error: CUSTOM_URL_RESERVED_MESSAGE,
    })
    .optional();

/** Sign-up: letters, numbers, underscores and hyphens, lower-cased. */
const SignupCustomUrlSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.toLowerCase() : value),
  customUrlBase(/^[a-z0-9_-]+$/, "URL can only contain letters, numbers, underscores, and hyphens"),
);

/** Up to 3 category names from the list (stored comma-separated, SPEC.md). */
const expertiseSchema = z
  .array(z.string().trim().min(1).max(EXPERT_LIMITS.textMaxLength), { error: EXPERTISE_REQUIRED_MESSAGE })
  .transform((names) => [...new Set(names)])
  .pipe(
    z
      .array(z.string())
      .min(1, { error: EXPERTISE_REQUIRED_MESSAGE, abort: true })
      .max(EXPERT_LIMITS.maxExpertiseCategories, { error: MAX_CATEGORIES_MESSAGE, abort: true })
      .refine((names) => names.join(", ").length >= 5, { error: EXPERTISE_REQUIRED_MESSAGE }),
  );

const categoryIdSchema = recordId("Please select a category");

// ---------- Sign-up wizard (/become-expert) ----------

export const ExpertAccountStepSchema = z.object({
  username: UsernameSchema,
  password: NewPasswordSchema,
  email: emailWith("Please provide a valid email address"),
  firstName: requiredName("First name is required").max(50, {
    error: "First name must be at most 50 characters",
  }),
  lastName: requiredName("Last name is required").max(50, {
    error: "Last name must be at most 50 characters",
  }),
});

export const ExpertProfileStepSchema = z.object({
  title: z
    .string({ error: "Professional title is required" })
    .overwrite(toSingleLine)
    .trim()
    .min(3, { error: "Professional title is required" })
    .max(EXPERT_LIMITS.textMaxLength, { error: "Professional title must be at most 100 characters" }),
  occupation: z
    .string({ error: "Company/Organization must be at least 3 characters" })
    .overwrite(toSingleLine)
    .trim()
    .min(3, { error: "Company/Organization must be at least 3 characters" })
    .max(EXPERT_LIMITS.textMaxLength, { error: "Company/Organization must be at most 100 characters" }),
  customUrl: SignupCustomUrlSchema,
  categoryId: categoryIdSchema,
  expertise: expertiseSchema,
  bio: z
    .string({ error: `Bio must be at least ${EXPERT_LIMITS.signupBioMinLength} characters` })
    .trim()
    .min(EXPERT_LIMITS.signupBioMinLength, {
      error: `Bio must be at least ${EXPERT_LIMITS.signupBioMinLength} characters`,
    })
    .max(EXPERT_LIMITS.bioMaxLength, {
      error: `Bio must be at most ${EXPERT_LIMITS.bioMaxLength} characters`,
    }),
});

export const ExpertPricingStepSchema = z.object({
  questionRate: dollarsAsCents(EXPERT_LIMITS.signupQuestionRateMinCents, "Question rate must be at least $5"),
  sessionPrice: dollarsAsCents(
    EXPERT_LIMITS.signupSessionPriceMinCents,
    "Session price must be at least $30",
  ),
  termsAgreed: z
    .boolean({ error: "You must agree to the terms and conditions" })
    .refine((agreed) => agreed, { error: "You must agree to the terms and conditions" }),
});

/** A signed-in person skips the account step. */
export const ExpertSignupForUserSchema = ExpertProfileStepSchema.extend(ExpertPricingStepSchema.shape);
export const ExpertSignupSchema = ExpertAccountStepSchema.extend(ExpertSignupForUserSchema.shape);

export type ExpertAccountInput = z.output<typeof ExpertAccountStepSchema>;
export type ExpertProfileInput = z.output<typeof ExpertSignupForUserSchema>;

// ---------- Profile edit (/expert/settings) ----------

const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(300, { error: `${label} must be at most 300 characters` })
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
        } catch {
          return false;
        }
      },
      { error: `${label} must be a valid URL (https://...)` },
    )
    .optional();

/**
 * General information. `currentCustomUrl` is the one the expert has now: it stays acceptable even if
 * it was made under the sign-up rule (which also allows underscores).
 */
export function makeExpertGeneralSchema(currentCustomUrl: string | null | undefined) {
  return z.object({
    title: z
      .string({ error: "Title must be at least 3 characters" })
      .overwrite(toSingleLine)
      .trim()
      .min(3, { error: "Title must be at least 3 characters" })
      .max(EXPERT_LIMITS.textMaxLength, { error: "Title must be at most 100 characters" }),
    occupation: optionalLine("Occupation", EXPERT_LIMITS.textMaxLength),
    company: optionalLine("Company", EXPERT_LIMITS.textMaxLength),
    location: optionalLine("Location", EXPERT_LIMITS.textMaxLength),
    customUrl: customUrlBase(
      /^[a-z0-9-]+$/,
      "URL can only contain lowercase letters, numbers, and hyphens",
      currentCustomUrl ?? undefined,
    ),
    categoryId: categoryIdSchema,
    expertise: expertiseSchema,
    bio: z
      .string({ error: `Bio must be at least ${EXPERT_LIMITS.editBioMinLength} characters` })
      .trim()
      .min(EXPERT_LIMITS.editBioMinLength, {
        error: `Bio must be at least ${EXPERT_LIMITS.editBioMinLength} characters`,
      })
      .max(EXPERT_LIMITS.bioMaxLength, {
        error: `Bio must be at most ${EXPERT_LIMITS.bioMaxLength} characters`,
      }),
    consultingTopics: z
      .string()
      .trim()
      .min(EXPERT_LIMITS.consultingTopicsMinLength, {
        error: `What you consult on must be at least ${EXPERT_LIMITS.consultingTopicsMinLength} characters`,
      })
      .max(EXPERT_LIMITS.consultingTopicsMaxLength, {
        error: `What you consult on must be at most ${EXPERT_LIMITS.consultingTopicsMaxLength} characters`,
      })
      .optional(),
    qualifications: optionalText("Qualifications", EXPERT_LIMITS.qualificationsMaxLength),
    socialWebsite: httpUrl("Website"),
    socialLinkedIn: httpUrl("LinkedIn"),
    socialTwitter: httpUrl("Twitter"),
    socialInstagram: httpUrl("Instagram"),
  });
}

export type ExpertGeneralInput = z.output<ReturnType<typeof makeExpertGeneralSchema>>;

export const ExpertPricingSchema = z.object({
  questionRate: dollarsAsCents(EXPERT_LIMITS.editQuestionRateMinCents, "Minimum question rate is $5.00"),
  sessionPrice: dollarsAsCents(EXPERT_LIMITS.editSessionPriceMinCents, "Minimum session price is $10.00"),
});

export type ExpertPricingInput = z.output<typeof ExpertPricingSchema>;

/** Which settings form was posted. */
export const SETTINGS_INTENTS = ["general", "pricing", "profileImage", "headerImage"] as const;
export type SettingsIntent = (typeof SETTINGS_INTENTS)[number];

// ---------- Admin ----------

export const ADMIN_EXPERT_FILTERS = ["all", "unverified", "verified", "featured"] as const;
export type AdminExpertFilter = (typeof ADMIN_EXPERT_FILTERS)[number];
export const CONTACT_FILTERS = ["open", "handled", "all"] as const;
export type ContactFilter = (typeof CONTACT_FILTERS)[number];

export const AdminExpertActionSchema = z.object({
  intent: z.enum(["verify", "unverify", "feature", "unfeature"], { error: "Unknown action." }),
  expertId: recordId("Unknown expert."),
});

export const AdminMessageActionSchema = z.object({
  intent: z.enum(["handled", "open"], { error: "Unknown action." }),
  messageId: recordId("Unknown message."),
});

// ---------- The wizard's answer ----------

export type SignupNotice = { title: string; description?: string; variant?: "default" | "destructive" };

/** What the /become-expert action answers (JSON over single fetch, or the page without JavaScript). */
/** What a refused application sent back, so a page rendered without JavaScript keeps it (never the password). */
export type ExpertSignupValues = Record<string, string | string[]>;

export type ExpertSignupResult =
  | {
      status: "invalid";
      errors: Record<string, string[] | null>;
      formError?: string;
      values?: ExpertSignupValues;
      /** The wizard was filled in signed in, and the session ended before it was sent. */
      sessionEnded?: boolean;
    }
  | { status: "already-expert" }
  | { status: "created"; redirectTo: string; notices: SignupNotice[] }
  | { status: "partial"; redirectTo: string };

/** The hidden field a signed-in wizard sends, so the server can tell its session has since ended. */
export const SIGNED_IN_FIELD = "asSignedIn";
export const SESSION_ENDED_MESSAGE =
  "Your session has ended, so your profile was not created. Sign in again in a new tab (what you typed here stays), then press Create Expert Profile again.";

/** SPEC.md's submit failure, for someone who was signed in already (no account was made). */
export const PROFILE_NOT_CREATED_MESSAGE = "Failed to create expert profile. Please try again.";

/** SPEC.md's partial success: the account exists, the profile does not. */
export const PARTIAL_SUCCESS_NOTICE: SignupNotice = {
  title: "Partial Success",
  description:
    "Your account was created and you are signed in, but we couldn't create your expert profile. Please try again from Become an Expert.",
  variant: "destructive",
};

export const PROFILE_CREATED_NOTICE: SignupNotice = {
  title: "Expert profile created",
  description: "Welcome aboard! Taking you to your dashboard...",
};

// ---------- JSON API (PATCH and POST /api/experts) ----------

/** The fields PATCH /api/experts/{id} accepts: General Information, Pricing, and the availability switch. */
export const EXPERT_GENERAL_FIELDS = Object.keys(
  makeExpertGeneralSchema(null).shape,
) as (keyof ExpertGeneralInput)[];
export const EXPERT_PRICING_FIELDS = Object.keys(ExpertPricingSchema.shape) as (keyof ExpertPricingInput)[];

/**
 * The API's prices are JSON whole numbers of cents: "600", null or 600.5 is refused as what it is,
 * which the screens' minimum message ("Minimum question rate is $5.00") would not explain, and a
 * fraction of a cent is never rounded into a price nobody sent. Checked before `expertApiValues`.
 */
export const ExpertApiPricesSchema = z.object({
  questionRate: z.number().int().optional(),
  sessionPrice: z.number().int().optional(),
});

/**
 * The API speaks integer cents for prices (as it answers them) and takes expertise as a list or
 * comma-joined (SPEC.md section 7). This turns an API body into the values the screens' schemas
 * parse, so the same rules and messages apply.
 */
export function expertApiValues(body: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = { ...body };
  for (const key of ["questionRate", "sessionPrice"]) {
    if (key in values) values[key] = typeof values[key] === "number" ? (values[key] as number) / 100 : "";
  }
  if (typeof values.expertise === "string") {
    values.expertise = values.expertise
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
  }
  return values;
}
