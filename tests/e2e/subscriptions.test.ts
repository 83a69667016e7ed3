/**
 * Subscriptions in the browser (test mode: `wrangler dev` has no Stripe key): a new visitor
 * subscribes, lands on the subscription thank-you text, asks one question without paying and is told
 * the next is available tomorrow; the dashboard panel cancels at the end of the period and resumes.
 */
import { describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE, screenshot } from "./harness";
import { demoExpertId, gotoHydrated, signInAs } from "./support/pages";
import { pageAs } from "./support/sessions";

let run = 0;
const uniqueName = () => `e2e-sub-${Date.now().toString(36)}-${++run}`;

describe("subscriptions in the browser (test mode)", () => {
  it("shows the subscription screen with SPEC.md's texts on a phone and a desktop", async () => {
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(viewport);
      await gotoHydrated(page, "/subscribe");
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Monthly Subscription");
      expect(
        await page
          .getByText("Get unlimited daily questions answered by our experts for $20/month")
          .isVisible(),
      ).toBe(true);
      expect(await page.getByText("Test Mode Active").first().isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Subscribe Now" }).isVisible()).toBe(true);

      // SPEC.md's rules, checked as the visitor types, before anything is sent.
      const form = page.locator("form#subscribe");
      await form.getByLabel("Email").fill("not-an-email");
      await form.getByLabel("Username").fill("ab");
      await form.getByLabel("Password").fill("12345");
      await form.getByLabel("Password").blur();
      await expect.poll(() => form.textContent()).toContain("Please enter a valid email address");
      await expect.poll(() => form.textContent()).toContain("Username must be at least 3 characters");
      await expect.poll(() => form.textContent()).toContain("Password must be at least 6 characters");
      await screenshot(page, `subscriptions-subscribe-${name}`);
    }
  });

  it("subscribes a new visitor, who asks one question without paying and is told the next is tomorrow", async () => {
    // India has no daylight saving: midnight UTC is always 5:30 AM there.
    const page = await newPage(DESKTOP, { timezoneId: "Asia/Kolkata" });
    const username = uniqueName();
    await gotoHydrated(page, "/subscribe");
    const form = page.locator("form#subscribe");
    await form.getByLabel("Email").fill(`${username}@example.com`);
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password").fill("subscriber-pass-1");
    await Promise.all([
      page.waitForURL(
        (url) => url.pathname === "/thank-you" && url.searchParams.get("subscription") === "true",
      ),
      page.getByRole("button", { name: "Subscribe Now" }).click(),
    ]);
    await expect
      .poll(() => page.getByRole("heading", { name: "Subscription Activated!" }).isVisible())
      .toBe(true);
    expect(await page.getByText("Your monthly subscription is active").isVisible()).toBe(true);
    expect(await page.getByText("one new question per day is included").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Success! (Test Mode)").first().isVisible()).toBe(true);
    // Signed in as the new account.
    expect(
      await page
        .getByRole("banner")
        .getByRole("link", { name: /My Dashboard/ })
        .isVisible(),
    ).toBe(true);
    await screenshot(page, "subscriptions-thank-you-desktop");

    const expertId = await demoExpertId(page);
    await gotoHydrated(page, `/ask/${expertId}`);
    await expect
      .poll(() => page.getByText("Included in your subscription: 1 question left today.").isVisible())
      .toBe(true);
    expect(await page.getByText("One-time question").count()).toBe(0);
    await page
      .getByRole("textbox", { name: "Your Question" })
      .fill(`E2E ${username}: which metrics should a new subscription box track first?`);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/thank-you" && url.searchParams.has("question")),
      page.getByRole("button", { name: "Submit Question" }).click(),
    ]);
    await expect
      .poll(() => page.getByRole("heading", { name: "Question Submitted!" }).isVisible())
      .toBe(true);

    await gotoHydrated(page, `/ask/${expertId}`);
    await expect
      .poll(() => page.getByText(/Your next question is available from .+ \(midnight UTC\)\./).textContent())
      .toMatch(/ 5:30\sAM GMT\+5:30 \(midnight UTC\)\.$/);
    expect(await page.getByRole("button", { name: "Submit Question" }).isDisabled()).toBe(true);
    // Nothing can be written that could not be sent.
    expect(await page.getByRole("textbox", { name: "Your Question" }).isDisabled()).toBe(true);
    expect(await page.getByRole("switch", { name: "Request Audio Response" }).isDisabled()).toBe(true);
    await screenshot(page, "subscriptions-ask-used-desktop");

    await gotoHydrated(page, "/dashboard");
    const panel = page.getByRole("region", { name: "Monthly Subscription" });
    await expect.poll(() => panel.getByText("0 questions left today").isVisible()).toBe(true);
    await expect
      .poll(() => panel.getByText(/Your next question is available from/).textContent())
      .toMatch(/ 5:30\sAM GMT\+5:30 \(midnight UTC\)\.$/);
    expect(await panel.getByText("Renews on", { exact: true }).isVisible()).toBe(true);

    // The expert's desk marks it as a subscriber's question: no card of theirs is charged.
    const expert = await pageAs("expert", DESKTOP);
    await gotoHydrated(expert, "/expert/questions");
    const row = expert.getByRole("tabpanel").locator("tr", { hasText: `E2E ${username}:` });
    await row.getByRole("button", { name: /^Answer/ }).click();
    const dialog = expert.getByRole("dialog");
    await expect.poll(() => dialog.getByText("Subscriber's question").isVisible()).toBe(true);
    await expert.close();
  });

  it("cancels at the end of the period from the dashboard and resumes before it", async () => {
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(viewport);
      const username = uniqueName();
      await gotoHydrated(page, "/subscribe");
      const form = page.locator("form#subscribe");
      await form.getByLabel("Email").fill(`${username}@example.com`);
      await form.getByLabel("Username").fill(username);
      await form.getByLabel("Password").fill("subscriber-pass-1");
      await Promise.all([
        page.waitForURL((url) => url.pathname === "/thank-you"),
        page.getByRole("button", { name: "Subscribe Now" }).click(),
      ]);

      await gotoHydrated(page, "/dashboard");
      const panel = page.getByRole("region", { name: "Monthly Subscription" });
      await expect.poll(() => panel.getByTestId("subscription-status").textContent()).toBe("Active");
      expect(await panel.getByText("1 question left today").isVisible()).toBe(true);
      await screenshot(page, `subscriptions-dashboard-active-${name}`);

      await panel.getByRole("button", { name: "Cancel subscription" }).click();
      const dialog = page.getByRole("dialog", { name: "Cancel your subscription?" });
      await dialog.waitFor();
      await screenshot(page, `subscriptions-cancel-dialog-${name}`);
      await dialog.getByRole("button", { name: "Cancel subscription" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.getByText("Subscription cancelled").first().isVisible()).toBe(true);
      await expect.poll(() => panel.getByTestId("subscription-status").textContent()).toMatch(/^Cancels on /);
      // Its button gone, focus stays with the panel (its heading), not thrown to the top of the page.
      const focusedId = () => page.evaluate(() => document.activeElement?.id);
      await expect.poll(focusedId).toBe("subscription-heading");
      expect(await panel.getByText("Ends on", { exact: true }).isVisible()).toBe(true);
      await screenshot(page, `subscriptions-dashboard-cancelling-${name}`);

      await panel.getByRole("button", { name: "Resume" }).click();
      await expect.poll(() => page.getByText("Subscription resumed").first().isVisible()).toBe(true);
      await expect.poll(() => panel.getByTestId("subscription-status").textContent()).toBe("Active");
      await expect.poll(focusedId).toBe("subscription-heading");
      expect(await panel.getByText("Renews on", { exact: true }).isVisible()).toBe(true);
    }
  });

  it("shows the demo subscriber's plan and refuses a second subscription", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "subscriber");
    await gotoHydrated(page, "/subscribe");
    await expect
      .poll(() => page.getByText("You already have an active subscription.").isVisible())
      .toBe(true);
    expect(await page.getByRole("button", { name: "Subscribe Now" }).count()).toBe(0);
    await screenshot(page, "subscriptions-already-subscribed-phone");
  });
});
