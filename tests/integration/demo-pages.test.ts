import type { AppLoadContext } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import * as expertQuickLogin from "~/routes/expert.quick-login";
import * as quickLogin from "~/routes/quick-login";
import * as testAudio from "~/routes/test-audio";
import * as testLogin from "~/routes/test-login";
import * as userQuickLogin from "~/routes/user.quick-login";
import { get, insertAccount, postForm } from "./support/accounts";

const DEMO_ROUTES = {
  "/user/quick-login": userQuickLogin,
  "/expert/quick-login": expertQuickLogin,
  "/quick-login": quickLogin,
  "/test-login": testLogin,
  "/test-audio": testAudio,
};

describe("demo pages", () => {
  it("exist in demo mode", async () => {
    for (const path of Object.keys(DEMO_ROUTES)) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  it("are a 404, loader and action alike, when DEMO_MODE is off", async () => {
    const context = { config: parseConfig({ ENVIRONMENT: "test", DEMO_MODE: "false" }) } as AppLoadContext;
    for (const [path, route] of Object.entries(DEMO_ROUTES)) {
      const args = {
        request: new Request(`https://marketplace.test${path}`, { method: "POST" }),
        params: {},
        context,
      };
      for (const handler of [route.loader, route.action] as Array<(input: typeof args) => unknown>) {
        // Awaited directly, so a rejected (async) handler has its rejection handled at once; chaining
        // .then(() => handler()) left the inner promise briefly unhandled and workerd reported it.
        let outcome: unknown;
        try {
          outcome = await handler(args);
        } catch (thrown) {
          outcome = thrown;
        }
        expect(outcome, path).toBeInstanceOf(Response);
        expect((outcome as Response).status, path).toBe(404);
      }
    }
  });

  it("sign in with one click and land where SPEC.md says", async () => {
    await insertAccount("demo-client", "client-pass-123");
    await insertAccount("demo-expert", "expert-pass-123", { role: "expert" });
    const client = await postForm("/user/quick-login", {
      intent: "login",
      username: "demo-client",
      password: "client-pass-123",
    });
    expect(client.headers.get("Location")).toBe("/dashboard");
    const expert = await postForm("/expert/quick-login", {
      intent: "login",
      username: "demo-expert",
      password: "expert-pass-123",
    });
    expect(expert.headers.get("Location")).toBe("/expert/dashboard");
    const fixed = await postForm("/quick-login", {
      intent: "login",
      username: "demo-expert",
      password: "expert-pass-123",
    });
    expect(fixed.headers.get("Location")).toBe("/expert/dashboard");
    const fixedClient = await postForm("/quick-login", {
      intent: "login",
      username: "demo-client",
      password: "client-pass-123",
    });
    expect(fixedClient.headers.get("Location")).toBe("/dashboard");
  });

  it("refuses to run production in test mode or with demo pages on", () => {
    expect(() => parseConfig({ ENVIRONMENT: "production" })).toThrow(/STRIPE_SECRET_KEY/);
    const production = {
      ENVIRONMENT: "production",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
    };
    expect(() => parseConfig({ ...production, DEMO_MODE: "true" })).toThrow(/DEMO_MODE/);
    expect(() => parseConfig(production)).toThrow(/APP_URL/);
    expect(parseConfig({ ...production, APP_URL: "https://answers.example.com" }).paymentsTestMode).toBe(
      false,
    );
    expect(parseConfig({ ENVIRONMENT: "development" }).paymentsTestMode).toBe(true);
  });
});
