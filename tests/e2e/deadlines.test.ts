/**
 * Keeping promises in the browser: a question whose 24-hour deadline has passed is expired by the
 * scheduled handler (triggered through wrangler's test endpoint); the client sees the notification
 * on the bell and in the list, the not-charged status on the dashboard, and rates an answered question.
 *
 * The question is inserted with its deadline already past (wrangler d1 execute on the server's local
 * state): the handler then runs on its real clock, as the Cron Trigger does.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot, stateDir } from "./harness";
import { executeSql } from "./support/d1";
import { gotoHydrated, signInAs } from "./support/pages";

const HOUR = 60 * 60 * 1000;
const stamp = Date.now().toString(36);
const EXPIRED = `E2E ${stamp}: should I move my bakery's payroll to a new provider before the holidays?`;
const ANSWERED = `E2E ${stamp}: is a loyalty card worth it for a two-chair barber shop?`;

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function seedQuestions() {
  const now = Date.now();
  const client = `(SELECT id FROM users WHERE username = ${quote(DEMO_ACCOUNTS.client.username)})`;
  const expert = `(SELECT e.id FROM experts e JOIN users u ON u.id = e.user_id WHERE u.username = ${quote(DEMO_ACCOUNTS.expert.username)})`;
  const columns =
    "user_id, expert_id, name, email, question, answer, status, amount, payment_state, paid_at, deadline_at, answered_at, created_at";
  // Safe to run twice (executeSql may retry): a question text is inserted only once.
  const insertOnce = (text: string, values: string) =>
    `INSERT INTO questions (${columns}) SELECT ${values} WHERE NOT EXISTS (SELECT 1 FROM questions WHERE question = ${quote(text)});`;
  await executeSql(
    stateDir(),
    [
      insertOnce(
        EXPIRED,
        `${client}, ${expert}, 'Demo Client', 'client@example.com', ${quote(EXPIRED)}, NULL, 'pending', 500, 'test_mode', ${now - 25 * HOUR}, ${now - HOUR}, NULL, ${now - 25 * HOUR}`,
      ),
      insertOnce(
        ANSWERED,
        `${client}, ${expert}, 'Demo Client', 'client@example.com', ${quote(ANSWERED)}, 'Yes: a punch card pays for itself after two visits.', 'answered', 500, 'test_mode', ${now - 3 * HOUR}, ${now + 21 * HOUR}, ${now - HOUR}, ${now - 3 * HOUR}`,
      ),
    ].join(" "),
  );
}

describe("the deadline, in the browser", () => {
  it("shows the client the expiry notification and the not-charged status, and lets them rate an answer", async () => {
    await seedQuestions();
    const cron = await fetch(`${baseUrl()}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`, {
      signal: AbortSignal.timeout(30_000),
    });
    expect(cron.status).toBe(200);

    // A client in India reads the notification's time on their own clock.
    const page = await newPage(PHONE, { timezoneId: "Asia/Kolkata" });
    await signInAs(page, "client");
    const bell = page.getByRole("link", { name: /^Notifications, \d+ unread$/ });
    await expect.poll(() => bell.isVisible()).toBe(true);
    await Promise.all([page.waitForURL((url) => url.pathname === "/notifications"), bell.click()]);
    await page.waitForSelector("html[data-hydrated]");
    const expired = page
      .locator("li.notification", { hasText: "No answer in time: you were not charged" })
      .first();
    await expect.poll(() => expired.isVisible()).toBe(true);
    await expect
      .poll(() => expired.locator("time").textContent())
      .toMatch(/^\w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M GMT\+5:30$/);
    await screenshot(page, "notifications-phone");

    // Mark it read: the bell's count goes down.
    const before = Number((await bell.getAttribute("aria-label"))?.match(/(\d+) unread/)?.[1] ?? 0);
    await expired.getByRole("button", { name: "Mark as read" }).click();
    await expect
      .poll(async () => page.getByRole("link", { name: /^Notifications, / }).getAttribute("aria-label"))
      .toBe(before - 1 === 0 ? "Notifications, none unread" : `Notifications, ${before - 1} unread`);

    await gotoHydrated(page, "/dashboard/questions");
    const card = page.locator("article", { hasText: EXPIRED });
    await expect
      .poll(() => card.getByText("No answer in time: you were not charged.").isVisible())
      .toBe(true);

    // Rate the answered question: four stars and a comment.
    const answered = page.locator("article", { hasText: ANSWERED });
    await answered.getByRole("radio", { name: "4 stars" }).check();
    await answered.getByRole("textbox", { name: "Comment (optional)" }).fill("Practical and quick.");
    await screenshot(page, "review-form-phone");
    // Sent while offline: the page says so and keeps the stars and the comment.
    await page.context().setOffline(true);
    await answered.getByRole("button", { name: "Submit rating" }).click();
    await expect.poll(() => page.getByText("We couldn't reach the server.").first().isVisible()).toBe(true);
    expect(await answered.getByRole("radio", { name: "4 stars" }).isChecked()).toBe(true);
    expect(await answered.getByRole("textbox", { name: "Comment (optional)" }).inputValue()).toBe(
      "Practical and quick.",
    );
    await page.context().setOffline(false);
    await answered.getByRole("button", { name: "Submit rating" }).focus();
    // Sent twice at once (a double-click): one rating is sent.
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/reviews")) {
        sent.push(request.url());
      }
    });
    // Two activations before the page can re-render, as a quick double-click lands.
    await answered.getByRole("button", { name: "Submit rating" }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expect.poll(() => answered.getByText("You rated this 4 out of 5 stars.").isVisible()).toBe(true);
    expect(sent).toHaveLength(1);
    // The thanks takes the focus the gone Submit button had: the next Tab goes on from this question.
    await expect
      .poll(() => answered.locator(".review-done").evaluate((thanks) => thanks === document.activeElement))
      .toBe(true);

    // Reloaded, it stays rated (the server has the review).
    await gotoHydrated(page, "/dashboard/questions");
    await expect
      .poll(() =>
        page
          .locator("article", { hasText: ANSWERED })
          .getByText("You rated this 4 out of 5 stars.")
          .isVisible(),
      )
      .toBe(true);
  }, 120_000); // Past the usual minute: seeding shells out to wrangler, which executeSql may retry.

  it("fits the header with the bell without sideways scrolling, for the longest dashboard label", async () => {
    for (const width of [360, 1024, 1200, 1280]) {
      const page = await newPage({ width, height: 800 });
      await signInAs(page, "expert");
      await gotoHydrated(page, "/notifications");
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${width}px`,
      ).toBeLessThanOrEqual(width);
      await expect.poll(() => page.getByRole("link", { name: /^Notifications, / }).isVisible()).toBe(true);
      await page.context().close();
    }
  });

  it("shows the admins what the scheduled run changed", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "admin", { redirectTo: "/admin/runs" });
    await gotoHydrated(page, "/admin/runs");
    await expect.poll(() => page.getByRole("heading", { name: "Scheduled runs" }).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByText(/Questions expired: \d+/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await screenshot(page, "admin-runs-desktop");
    await gotoHydrated(page, "/notifications");
    await screenshot(page, "notifications-desktop");
  });
});
