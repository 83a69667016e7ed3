/**
 * What people type is not what designers expect: a pasted link, a 500-letter word, a long name. Every
 * screen that shows it must still fit a 390 px phone, and the expert must still be able to answer.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { DESKTOP, newPage, PHONE, SMALL_PHONE, screenshot, stateDir } from "./harness";
import { executeSql } from "./support/d1";
import { layoutProblems } from "./support/layout";
import { demoExpertId, gotoHydrated, registerAs, signInAs } from "./support/pages";
import { seriousA11yViolations } from "./support/watch";

const stamp = Date.now().toString(36);
const LINK = `https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ/edit#gid=0&range=A1:Z1000&e2e=${stamp}`;
const WORD = "W".repeat(500);
const QUESTION = `E2E ${stamp}: can you review my model? ${LINK} ${WORD}`;

/** An answered question of the demo client's, put straight into the database (safe to run twice). */
async function seedAnsweredQuestion(text: string) {
  const client = `(SELECT id FROM users WHERE username = '${DEMO_ACCOUNTS.client.username}')`;
  const expert = `(SELECT e.id FROM experts e JOIN users u ON u.id = e.user_id WHERE u.username = '${DEMO_ACCOUNTS.expert.username}')`;
  const now = Date.now();
  await executeSql(
    stateDir(),
    `INSERT INTO questions (user_id, expert_id, name, email, question, answer, status, amount, payment_state, paid_at, deadline_at, answered_at, created_at) SELECT ${client}, ${expert}, 'Demo Client', 'client@example.com', '${text}', 'A stamp card.', 'answered', 500, 'test_mode', ${now - 7_200_000}, ${now + 79_200_000}, ${now - 3_600_000}, ${now - 7_200_000} WHERE NOT EXISTS (SELECT 1 FROM questions WHERE question = '${text}');`,
  );
}

async function expectFitsThePhone(page: Page, what: string) {
  const layout = await layoutProblems(page);
  expect(layout.horizontalOverflow, `${what}: scrolls sideways at 390 px`).toBeNull();
  expect(layout.overlaps, `${what}: overlapping controls at 390 px`).toEqual([]);
}

describe("long words and links in what people type", () => {
  it("keeps every screen that shows a question within the phone, and the expert can answer it", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    await gotoHydrated(client, `/ask/${expertId}`);
    await client.getByRole("textbox", { name: "Your Question" }).fill(QUESTION);
    await Promise.all([
      client.waitForURL((url) => url.pathname === "/thank-you"),
      client.getByRole("button", { name: "Submit Question (Test Mode)" }).click(),
    ]);
    const questionId = Number(new URL(client.url()).searchParams.get("question"));

    await gotoHydrated(client, "/dashboard/questions");
    await expectFitsThePhone(client, "the client's questions");
    // The list shows the question's first four lines, and links the page that has it whole.
    const item = client.locator(".question-item", { has: client.locator(`#question-${questionId}`) });
    const text = item.locator(".question-item__text");
    const [height, lineHeight] = await text.evaluate((element) => [
      element.getBoundingClientRect().height,
      Number.parseFloat(getComputedStyle(element).lineHeight),
    ]);
    expect(height).toBeLessThanOrEqual(4 * lineHeight + 1);
    await Promise.all([
      client.waitForURL((url) => url.pathname === `/questions/${questionId}`),
      item.getByRole("link", { name: `Read the whole question #${questionId}` }).click(),
    ]);
    await expectFitsThePhone(client, "the client's question page");

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/questions");
    await expectFitsThePhone(expert, "the expert's questions");
    await expert
      .locator("tr", { hasText: `E2E ${stamp}` })
      .getByRole("button", { name: "Answer" })
      .click();
    const dialog = expert.getByRole("dialog");
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box, "the answer dialog is on screen").not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(expert, "long-text-answer-dialog-phone");
    // A click on the question, then the keyboard scrolls the dialog.
    await dialog.locator(".question-text").click();
    // Focus is on what scrolls (not the frame around it), so the keys scroll it in every browser.
    expect(await expert.evaluate(() => document.activeElement?.classList.contains("dialog-body"))).toBe(true);
    await expert.keyboard.press("End");
    await expect
      .poll(() => dialog.locator(".dialog-body").evaluate((body) => body.scrollTop))
      .toBeGreaterThan(100);
    await dialog
      .getByRole("textbox", { name: "Your Answer" })
      .fill("The model holds up; split the assumptions onto their own sheet.");
    // Scrolled down to the answer, the dialog still shows its close button, on top of the text.
    await dialog.getByRole("button", { name: "Submit Answer" }).scrollIntoViewIfNeeded();
    const closeButton = dialog.getByRole("button", { name: "Close" });
    expect(
      await closeButton.evaluate((button) => {
        const frame = button.closest('[role="dialog"]')!;
        const scrolled = [frame, ...frame.querySelectorAll("*")].some((element) => element.scrollTop > 0);
        const { left, top, width, height } = button.getBoundingClientRect();
        const onTop = document.elementFromPoint(left + width / 2, top + height / 2);
        return { scrolled, visible: top >= 0 && top + height <= innerHeight, onTop: button.contains(onTop) };
      }),
    ).toEqual({ scrolled: true, visible: true, onTop: true });
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);

    const admin = await newPage(PHONE);
    await signInAs(admin, "admin");
    await gotoHydrated(admin, `/admin?question=${questionId}`);
    await expectFitsThePhone(admin, "the admin's questions");

    const wide = await newPage(DESKTOP);
    await signInAs(wide, "client");
    await gotoHydrated(wide, "/dashboard/questions");
    expect(await wide.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      DESKTOP.width,
    );
  });

  it("links the whole question of every question the client's list cuts short, on the smallest phone", async () => {
    // Short, but in wide letters: more than four lines at 320 px, so it must not be cut at all.
    const wide = `${"WWWWWWWW ".repeat(6)}${stamp.toUpperCase()}`.slice(0, 60);
    await seedAnsweredQuestion(wide);
    const page = await newPage(SMALL_PHONE);
    await signInAs(page, "client");
    await gotoHydrated(page, "/dashboard/questions");
    const items = await page.locator(".question-item").evaluateAll((elements) =>
      elements.map((item) => {
        const text = item.querySelector(".question-item__text");
        return {
          id: text?.id,
          cutShort: text ? text.scrollHeight > text.clientHeight + 1 : false,
          linked: item.querySelector('a[href^="/questions/"]') !== null,
        };
      }),
    );
    // The demo client's questions run past four lines at 320 px: the check has something to check.
    expect(items.filter((item) => item.cutShort).length).toBeGreaterThan(0);
    expect(items.filter((item) => item.cutShort && !item.linked)).toEqual([]);
    const [lines, cut] = await page
      .locator(".question-item__text", { hasText: wide })
      .evaluate((text) => [
        Math.round(
          text.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(text).lineHeight),
        ),
        text.scrollHeight > text.clientHeight + 1,
      ]);
    expect(lines).toBeGreaterThan(4);
    expect(cut).toBe(false);
  }, 120_000); // Past the usual minute: the question is seeded by wrangler, which executeSql may retry.

  it("keeps a long name within the phone on the dashboard", async () => {
    const page = await newPage(PHONE);
    await registerAs(page, {
      name: `Zoë ${"L".repeat(60)}`,
      username: `long-${stamp}`,
      password: "long-names-1",
    });
    await page.waitForSelector("html[data-hydrated]");
    await expectFitsThePhone(page, "the dashboard of a long name");
  });
});

describe("the rating form on the smallest phone", () => {
  it("keeps the five stars on one row in an answered question's card", async () => {
    const text = `E2E ${stamp}: which loyalty card should a small bakery print first?`;
    await seedAnsweredQuestion(text);
    const page = await newPage(SMALL_PHONE);
    await signInAs(page, "client");
    await gotoHydrated(page, "/dashboard/questions");
    const stars = page.locator(".question-item", { hasText: text }).locator(".review-star");
    expect(await stars.count()).toBe(5);
    const boxes = await stars.evaluateAll((elements) => elements.map((star) => star.getBoundingClientRect()));
    expect(new Set(boxes.map((box) => Math.round(box.top))).size, "one row").toBe(1);
    for (const box of boxes) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
  }, 120_000); // Past the usual minute: the question is seeded by wrangler, which executeSql may retry.
});

describe("larger text on a small phone", () => {
  it("keeps the signed-in header and the client's pages within 320 px at Chrome's Large text (20 px)", async () => {
    const page = await newPage(SMALL_PHONE);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.setFontSizes", { fontSizes: { standard: 20 } });
    await signInAs(page, "client");
    for (const path of ["/dashboard", "/dashboard/bookings", "/about", "/experts"]) {
      await gotoHydrated(page, path);
      const layout = await layoutProblems(page);
      expect(layout.horizontalOverflow, `${path}: scrolls sideways`).toBeNull();
      expect(layout.overlaps, `${path}: overlapping controls`).toEqual([]);
      const toggle = await page.getByRole("button", { name: /menu/i }).first().boundingBox();
      expect(toggle, `${path}: the menu button`).not.toBeNull();
      expect(toggle!.x + toggle!.width, `${path}: the menu button is on screen`).toBeLessThanOrEqual(
        SMALL_PHONE.width,
      );
      if (path === "/dashboard/bookings") await screenshot(page, "large-text-bookings-320");
    }
    // At the default text size, a 360 px phone's booking cards keep each label beside its value.
    const usual = await newPage({ width: 360, height: 800 });
    await signInAs(usual, "client");
    await gotoHydrated(usual, "/dashboard/bookings");
    const columns = await usual
      .locator(".bookings-table td")
      .first()
      .evaluate((cell) => getComputedStyle(cell).gridTemplateColumns.split(" ").length);
    expect(columns).toBe(2);
  });
});

describe("a dialog whose text runs past the screen", () => {
  it("is scrolled from the keyboard alone: its body is a Tab stop while it scrolls", async () => {
    const expert = await newPage(SMALL_PHONE);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/questions");
    await expert.getByRole("tab", { name: /^Answered/ }).click();
    const view = expert.getByRole("button", { name: /^View question #/ }).first();
    await view.focus();
    await expert.keyboard.press("Enter");
    const dialog = expert.getByRole("dialog");
    await dialog.waitFor();
    // Focus starts where it did (the close button: the answer has no control of its own).
    await expect
      .poll(() => expert.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Close");
    const body = dialog.locator(".dialog-body");
    expect(await body.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    expect(await seriousA11yViolations(expert, { include: '[role="dialog"]' })).toEqual([]);
    // Shift+Tab from Close reaches the body, named by the title; End scrolls it.
    await expert.keyboard.press("Shift+Tab");
    expect(await body.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await expert.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("region");
    await expert.keyboard.press("End");
    await expect.poll(() => body.evaluate((element) => element.scrollTop)).toBeGreaterThan(100);
    await expert.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
