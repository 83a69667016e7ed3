import * as z from "zod";

/** The Worker's bindings and variables, checked once per request (bindings enter in one place). */
const EnvSchema = z.object({
  ENVIRONMENT: z.enum(["development", "test", "production"]).default("development"),
  DEMO_MODE: z
    .string()
    .optional()
    .transform((value) => value === "true"),
  SUPPORT_EMAIL: z.string().default("support@expertanswers.example"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_SUBSCRIPTION_PRICE_ID: z.string().optional(),
  /** Test-only: points the Stripe client at a local fake. */
  STRIPE_API_BASE: z.string().optional(),
  EMAIL_API_KEY: z.string().optional(),
  EMAIL_FROM: z.string().optional(),
  EMAIL_API_BASE: z.string().optional(),
  /** The site's public origin, for links in e-mails (which have no page to be relative to). */
  APP_URL: z.string().url().optional(),
  /** `warn` drops the per-request info line (the benchmark); errors are always logged. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Each booking's video room is this followed by a random name (Jitsi Meet by default). */
  MEETING_ROOM_BASE: z.string().url().default("https://meet.jit.si/ExpertAnswers-"),
});

export type AppConfig = {
  environment: "development" | "test" | "production";
  isProduction: boolean;
  /** Demo pages (quick logins, /test-login, /test-audio) and the demo account box. */
  demoMode: boolean;
  /** No Stripe key: payments are skipped and the screens say so. Never in production. */
  paymentsTestMode: boolean;
  supportEmail: string;
  stripe: {
    secretKey?: string;
    publishableKey?: string;
    webhookSecret?: string;
    subscriptionPriceId?: string;
    apiBase?: string;
  };
  email: { apiKey?: string; from?: string; apiBase?: string };
  /** The site's public origin (links in e-mails). */
  appUrl: string;
  /**
   * APP_URL's origin when it is set: the one address pages name as canonical, whichever hostname
   * (a *.workers.dev copy, say) the request came in on. Unset (local, tests): the request's own.
   */
  siteOrigin: string | null;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Prefix of a booking's unique video-room URL. */
  meetingRoomBase: string;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, unknown>): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid Worker configuration: ${parsed.error.message}`);
  }
  const vars = parsed.data;
  const isProduction = vars.ENVIRONMENT === "production";
  const paymentsTestMode = !vars.STRIPE_SECRET_KEY;
  if (isProduction && paymentsTestMode) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY is required when ENVIRONMENT=production (test mode is refused).",
    );
  }
  // Without them the browser cannot pay, and no webhook is believed (renewals would go unrecorded).
  for (const name of ["STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
    if (isProduction && !vars[name]) {
      throw new ConfigError(`${name} is required when ENVIRONMENT=production.`);
    }
  }
  if (isProduction && vars.DEMO_MODE) {
    throw new ConfigError("DEMO_MODE must be off when ENVIRONMENT=production.");
  }
  // Every link in an e-mail starts with it: a default of localhost would break them all unnoticed.
  if (isProduction && !vars.APP_URL?.startsWith("https://")) {
    throw new ConfigError("APP_URL must be the site's https:// origin when ENVIRONMENT=production.");
  }
  return {
    environment: vars.ENVIRONMENT,
    isProduction,
    demoMode: vars.DEMO_MODE,
    paymentsTestMode,
    supportEmail: vars.SUPPORT_EMAIL,
    stripe: {
      secretKey: vars.STRIPE_SECRET_KEY,
      publishableKey: vars.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: vars.STRIPE_WEBHOOK_SECRET,
      subscriptionPriceId: vars.STRIPE_SUBSCRIPTION_PRICE_ID,
      apiBase: vars.STRIPE_API_BASE,
    },
    email: { apiKey: vars.EMAIL_API_KEY, from: vars.EMAIL_FROM, apiBase: vars.EMAIL_API_BASE },
    appUrl: vars.APP_URL ?? "http://localhost:8787",
    siteOrigin: vars.APP_URL ? new URL(vars.APP_URL).origin : null,
    logLevel: vars.LOG_LEVEL,
    meetingRoomBase: vars.MEETING_ROOM_BASE,
  };
}

/** The origin of the site's canonical addresses (sitemap, canonical links, share links). */
export function siteOrigin(config: Pick<AppConfig, "siteOrigin">, request: Request): string {
  return config.siteOrigin ?? new URL(request.url).origin;
}
