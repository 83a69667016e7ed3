import type { Page } from "playwright-core";
import { DEMO_ACCOUNTS } from "../../../app/lib/demo-accounts";

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

/** Root marks <html data-hydrated> once React is live; clicks before that would hit static HTML. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForSelector("html[data-hydrated]");
  return response;
}

/** Signs in through the /auth screen as a demo account and waits for the landing page. */
export async function signInAs(page: Page, role: DemoRole, { redirectTo }: { redirectTo?: string } = {}) {
  const { username, password } = DEMO_ACCOUNTS[role];
  await gotoHydrated(page, redirectTo ? `/auth?${new URLSearchParams({ redirectTo })}` : "/auth");
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/auth"),
    form.getByRole("button", { name: "Sign In" }).click(),
  ]);
  await page.waitForSelector("html[data-hydrated]");
}
