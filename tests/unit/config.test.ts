import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";

const production = {
  ENVIRONMENT: "production",
  STRIPE_SECRET_KEY: "sk_live_example",
  STRIPE_PUBLISHABLE_KEY: "pk_live_example",
  STRIPE_WEBHOOK_SECRET: "whsec_example",
  APP_URL: "https://answers.example.com",
};

describe("the Worker's configuration", () => {
  it("runs locally with test-mode payments and links to localhost", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      environment: "development",
      paymentsTestMode: true,
      appUrl: "http://localhost:8787",
    });
  });

  it("accepts a production configuration with Stripe, demo mode off and an https origin", () => {
    expect(parseConfig(production)).toMatchObject({
      isProduction: true,
      appUrl: "https://answers.example.com",
    });
  });

  it("refuses production without Stripe's keys and webhook secret, with demo mode, or without an https APP_URL", () => {
    const { STRIPE_SECRET_KEY: _key, ...noStripe } = production;
    expect(() => parseConfig(noStripe)).toThrow(/STRIPE_SECRET_KEY is required/);
    for (const name of ["STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"]) {
      expect(() => parseConfig({ ...production, [name]: undefined }), name).toThrow(
        `${name} is required when ENVIRONMENT=production.`,
      );
    }
    expect(() => parseConfig({ ...production, DEMO_MODE: "true" })).toThrow(/DEMO_MODE must be off/);
    const { APP_URL: _url, ...noUrl } = production;
    expect(() => parseConfig(noUrl)).toThrow(ConfigError);
    expect(() => parseConfig({ ...production, APP_URL: "http://answers.example.com" })).toThrow(
      /APP_URL must be the site's https:\/\/ origin/,
    );
  });
});
