import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { DESKTOP, newPage, PHONE, SMALL_PHONE, screenshot, stateDir, type Viewport } from "./harness";
import { executeSql } from "./support/d1";
import {
  gotoHydrated,
  holdRequests,
  holdScripts,
  logOut,
  OFFLINE_MESSAGE,
  reloadHydrated,
  signInAs,
  submitAfterSessionEnds,
} from "./support/pages";

const VIEWPORTS: Array<[string, Viewport]> = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
];

/** The type of each dialog the page opens from now on (a leave prompt is "beforeunload"), each accepted. */
function recordLeavePrompts(page: Page): string[] {
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  return asked;
}

/** A link of the expert portal's sidebar. */
const portalLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Expert portal" }).getByRole("link", { name });

/** The expert's Edit Profile, reached from the dashboard by the sidebar: Back from it stays in the app. */
async function settingsFromDashboard(): Promise<Page> {
  const page = await newPage(DESKTOP);
  await signInAs(page, "expert");
  await gotoHydrated(page, "/expert/dashboard");
  await portalLink(page, "Edit Profile").click();
  await page.waitForURL((url) => url.pathname === "/expert/settings");
  return page;
}

async function expectNoHorizontalScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

describe("the expert portal on a tablet", () => {
  /** Whether each table on the page shows its rows as cards (its header row hidden) or as a table. */
  const tableLayouts = (page: Page) =>
    page
      .locator(".table-frame table:visible thead")
      .evaluateAll((heads) =>
        heads.map((head) => (getComputedStyle(head).position === "absolute" ? "cards" : "table")),
      );

  it("keeps the sidebar from 768 px, its tables' rows as cards beside it, with no sideways scrolling", async () => {
    const page = await newPage({ width: 768, height: 1024 });
    await signInAs(page, "expert");
    for (const path of ["/expert/questions", "/expert/bookings"]) {
      await gotoHydrated(page, path);
      await page.locator("table").first().waitFor();
      // SPEC.md: the sidebar collapses under 768 px, so at 768 it stands beside the page.
      const nav = page.getByRole("navigation", { name: "Expert portal" });
      expect(await nav.isVisible(), path).toBe(true);
      expect(await page.getByRole("button", { name: /Portal menu/ }).isVisible(), path).toBe(false);
      const [navBox, mainBox] = [await nav.boundingBox(), await page.locator(".portal-main").boundingBox()];
      expect((navBox?.x ?? 0) + (navBox?.width ?? 0), path).toBeLessThanOrEqual(mainBox?.x ?? 0);
      await expectNoHorizontalScroll(page, path);
      // About 500 px beside the sidebar: each row is a card, every value labelled.
      expect(new Set(await tableLayouts(page)), path).toEqual(new Set(["cards"]));
      // A client's name is never split inside a word ("Nina Alvare/z").
      const names = await page
        .locator("table:visible td[data-label='Name'], table:visible td[data-label='Client']")
        .evaluateAll((cells) =>
          cells.map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            const words = (cell.textContent ?? "").trim().split(/\s+/).length;
            return `${cell.textContent}: ${tops.size <= words ? "whole words" : "split"}`;
          }),
        );
      expect(names.length, path).toBeGreaterThan(0);
      for (const name of names) expect(name, path).toMatch(/whole words$/);
      await screenshot(page, `expert-portal-${path.split("/").pop()}-tablet`);
    }

    // Just under 768 px the sidebar folds into its menu, as on a phone.
    await page.setViewportSize({ width: 767, height: 1024 });
    expect(await page.getByRole("button", { name: /Portal menu/ }).isVisible()).toBe(true);
    expect(await page.getByRole("navigation", { name: "Expert portal" }).isVisible()).toBe(false);
  });

  it("shows a table as a table where it has room beside the sidebar, each heading on one line", async () => {
    const page = await newPage({ width: 1024, height: 768 });
    await signInAs(page, "expert");
    for (const path of ["/expert/questions", "/expert/bookings"]) {
      await gotoHydrated(page, path);
      await page.locator("table th").first().waitFor();
      await expectNoHorizontalScroll(page, path);
      expect(new Set(await tableLayouts(page)), path).toEqual(new Set(["table"]));
      // Each column heading on one line: squeezed, "Date & Time" broke into "DA/TE/&/TI/ME".
      const lines = await page.locator("table:visible th").evaluateAll((cells) =>
        cells.map((cell) => {
          // The visible words only: a visually hidden copy (for screen readers) sits elsewhere.
          const tops = new Set<number>();
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement?.closest(".visually-hidden")) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
          }
          return `${cell.textContent?.trim()}: ${tops.size}`;
        }),
      );
      for (const line of lines) expect(line, path).toMatch(/: [01]$/);
    }
  });
});

describe("a questions table wider than the window", () => {
  it("scrolls inside its frame, never the page, from 640 to 1100 px", async () => {
    for (const [role, path] of [
      ["expert", "/expert/questions"],
      ["admin", "/admin"],
    ] as const) {
      const page = await newPage(DESKTOP);
      await signInAs(page, role);
      await gotoHydrated(page, path);
      const wrap = page.locator(".table-wrap").first();
      await wrap.waitFor();
      for (let width = 640; width <= 1100; width += 10) {
        await page.setViewportSize({ width, height: 800 });
        await expectNoHorizontalScroll(page, `${path} at ${width} px`);
      }
      // Not for want of a wide table: at 700 px (no sidebar, a frame just wide enough to be a
      // table rather than cards) it scrolls in its frame.
      await page.setViewportSize({ width: 700, height: 800 });
      expect(await wrap.evaluate((element) => element.scrollWidth > element.clientWidth), path).toBe(true);
      // And the keyboard can scroll it: the frame is a named region that takes focus.
      const name = (await wrap.getAttribute("aria-label")) ?? "";
      expect(name, path).toMatch(/questions$/i);
      const region = page.getByRole("region", { name, exact: true }).first();
      expect(await region.evaluate((element) => element.classList.contains("table-wrap")), path).toBe(true);
      expect(await wrap.evaluate((element) => element.tabIndex), path).toBe(0);
      await wrap.focus();
      await page.keyboard.press("ArrowRight");
      await expect
        .poll(() => wrap.evaluate((element) => element.scrollLeft), { message: path })
        .toBeGreaterThan(0);
      await page.context().close();
    }
  });
});

describe("the expert portal with the demo expert's history", () => {
  for (const [label, viewport] of VIEWPORTS) {
    it(`shows real figures on the dashboard, earnings and analytics (${label})`, async () => {
      const page = await newPage(viewport);
      await signInAs(page, "expert");

      await gotoHydrated(page, "/expert/dashboard");
      for (const card of ["Pending Questions", "Upcoming Bookings", "Avg. Response Time", "Average Rating"]) {
        expect(await page.locator(".stat-card__label", { hasText: card }).isVisible(), card).toBe(true);
      }
      // The real mean of answeredAt - paidAt (the seed's history happens to average 6.3 hours).
      const response = page
        .locator(".stat-card", { hasText: "Avg. Response Time" })
        .locator(".stat-card__value");
      expect(await response.textContent()).toMatch(/^\d+\.\d hours$/);
      expect(await page.getByRole("heading", { name: "Performance Overview" }).isVisible()).toBe(true);
      // The two "View all" links say where they go, to those who hear them out of their section.
      for (const [name, href] of [
        ["View all questions", "/expert/questions"],
        ["View all bookings", "/expert/bookings"],
      ]) {
        expect(await page.getByRole("link", { name, exact: true }).getAttribute("href"), name).toBe(href);
      }
      expect(await page.locator(".bar-chart__bar").count()).toBeGreaterThan(0);
      await expectNoHorizontalScroll(page, "dashboard");
      await screenshot(page, `expert-dashboard-${label}`);

      await gotoHydrated(page, "/expert/earnings");
      const total = page.locator(".stat-card--highlight .stat-card__value");
      expect(await total.textContent()).toMatch(/^\$\d+\.\d{2}$/);
      await page.getByRole("tab", { name: "Revenue Breakdown" }).click();
      await expect.poll(() => page.locator(".source-tile").first().isVisible()).toBe(true);
      expect(await page.locator(".source-tile__percent").first().textContent()).toMatch(/^\d+%$/);
      await expectNoHorizontalScroll(page, "earnings");
      await screenshot(page, `expert-earnings-${label}`);

      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^earnings-\d{4}-\d{2}-\d{2}\.csv$/);

      await gotoHydrated(page, "/expert/earnings/analytics");
      expect(await page.getByRole("heading", { name: "Earnings by month" }).isVisible()).toBe(true);
      expect(await page.locator(".bar-chart").count()).toBe(2);
      await expectNoHorizontalScroll(page, "analytics");
      await screenshot(page, `expert-earnings-analytics-${label}`);

      await gotoHydrated(page, "/expert/settings?tab=pricing");
      expect(await page.getByLabel("Question Rate (USD)").inputValue()).toMatch(/^\d+\.\d{2}$/);
      await page.getByLabel("Session Price (USD)").fill("9.99");
      await page.getByRole("button", { name: "Save Pricing" }).press("Enter");
      await expect.poll(() => page.getByText("Minimum session price is $10.00").isVisible()).toBe(true);
      // Focus goes to the field to fix.
      await expect
        .poll(() =>
          page.getByLabel("Session Price (USD)").evaluate((field) => field === document.activeElement),
        )
        .toBe(true);
      await screenshot(page, `expert-settings-pricing-${label}`);

      await gotoHydrated(page, "/expert/share");
      await expectNoHorizontalScroll(page, "share");
      await screenshot(page, `expert-share-${label}`);
    });
  }
});

describe("the question desk with more answered questions than one page holds", () => {
  it("pages Answered 50 at a time with JavaScript on, and another tab starts at its newest", async () => {
    const expertId = `(SELECT e.id FROM experts e JOIN users u ON u.id = e.user_id WHERE u.username = '${DEMO_ACCOUNTS.expert.username}')`;
    const clientId = `(SELECT id FROM users WHERE username = '${DEMO_ACCOUNTS.client.username}')`;
    // 55 answered questions a year old: the oldest of the desk, so they fill its last page.
    const asked = Date.now() - 400 * 24 * 60 * 60 * 1000;
    await executeSql(
      stateDir(),
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 55)
       INSERT INTO questions (user_id, expert_id, name, email, question, answer, status, amount, payment_state, paid_at, deadline_at, answered_at, created_at)
       SELECT ${clientId}, ${expertId}, 'Demo Client', 'client@example.com', 'E2E old desk question no. ' || printf('%02d', i), 'An old answer.', 'answered', 500, 'test_mode', ${asked} + i * 60000, ${asked} + 86400000, ${asked} + i * 60000 + 1000, ${asked} + i * 60000
       FROM n WHERE NOT EXISTS (SELECT 1 FROM questions WHERE question = 'E2E old desk question no. 01');`,
    );
    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/questions");
    await expert.getByRole("tab", { name: /^Answered/ }).click();
    const panel = expert.getByRole("tabpanel");
    const pages = panel.getByRole("navigation", { name: "Pages" });
    expect(await pages.textContent()).toMatch(/Page 1 of [2-9]/);
    await Promise.all([
      expert.waitForURL((url) => url.searchParams.get("page") === "2"),
      pages.getByRole("link", { name: "Next" }).click(),
    ]);
    expect(await expert.getByRole("tab", { name: /^Answered/ }).getAttribute("aria-selected")).toBe("true");
    // Newest first: the oldest of all, no. 01, is on the last page.
    await expect.poll(() => panel.locator("tr", { hasText: "E2E old desk question no. 01" }).count()).toBe(1);
    expect(await pages.textContent()).toMatch(/Page 2 of/);

    await expert.getByRole("tab", { name: /^All/ }).click();
    await expert.waitForURL((url) => url.searchParams.get("tab") === "all" && !url.searchParams.has("page"));
    await expect.poll(async () => (await pages.textContent()) ?? "").toMatch(/Page 1 of/);
  });
});

describe("the expert's analytics page", () => {
  it("names each of its regions once, the monthly table's scroller among them", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/earnings/analytics");
    // axe's landmark-unique: two regions were both "Monthly figures" (the card and its scroller).
    const names = await page
      .locator("section[aria-label], section[aria-labelledby], [role=region]")
      .evaluateAll((regions) =>
        regions.map(
          (region) =>
            region.getAttribute("aria-label") ??
            document.getElementById(region.getAttribute("aria-labelledby") ?? "")?.textContent ??
            "",
        ),
      );
    expect(names).toContain("Monthly figures");
    expect(names.length).toBeGreaterThan(2);
    expect(new Set(names).size, names.join(", ")).toBe(names.length);
    // The scroller still takes focus, so the keyboard can scroll the table.
    const scroller = page.getByRole("region", { name: "Monthly figures", exact: true });
    expect(await scroller.getAttribute("tabindex")).toBe("0");
    expect(await scroller.locator("table").count()).toBe(1);
  });

  it("shows its month labels whole on a 320 px phone, the latest month among them", async () => {
    const page = await newPage(SMALL_PHONE);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/earnings/analytics");
    const axes = page.locator(".bar-chart__x");
    expect(await axes.count()).toBe(2);
    for (const axis of await axes.all()) {
      // Each shown label's text as drawn: its own box clips it unless its overflow is visible.
      const labels = await axis.locator(".bar-chart__label").evaluateAll((spans) =>
        spans.map((span) => {
          const range = document.createRange();
          range.selectNodeContents(span);
          const text = range.getBoundingClientRect();
          const box = span.getBoundingClientRect();
          const style = getComputedStyle(span);
          const clipped =
            style.overflowX !== "visible" && (text.left < box.left - 0.5 || text.right > box.right + 0.5);
          return { text: span.textContent, shown: style.visibility !== "hidden", clipped, ...text.toJSON() };
        }),
      );
      expect(labels).toHaveLength(12);
      expect(labels.at(-1)?.shown, "the latest month is labelled").toBe(true);
      const shown = labels.filter((label) => label.shown);
      expect(shown.length).toBeGreaterThanOrEqual(6);
      for (const [index, label] of shown.entries()) {
        expect(label.clipped, `${label.text} is cut off`).toBe(false);
        const next = shown[index + 1];
        if (next) expect(label.right, `${label.text} runs into ${next.text}`).toBeLessThanOrEqual(next.left);
      }
      const frame = await axis.evaluate((element) =>
        element.closest(".card")?.getBoundingClientRect().toJSON(),
      );
      expect(shown[0].left).toBeGreaterThanOrEqual(frame.left);
      expect(shown.at(-1)?.right).toBeLessThanOrEqual(frame.right);
    }
    await expectNoHorizontalScroll(page, "analytics at 320 px");
  });
});

describe("admin verification in the browser", () => {
  it("verifies and features an expert from the experts list", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "admin");
    // Verify and Unverify, Feature and Unfeature take the same width: the rows' buttons line up.
    await gotoHydrated(page, "/admin/experts");
    const widths = await page
      .locator(".admin-expert__actions .btn")
      .evaluateAll((buttons) => [
        ...new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().width))),
      ]);
    expect(widths).toHaveLength(1);
    await gotoHydrated(page, "/admin/experts?filter=unverified");
    const first = page.locator(".admin-expert").first();
    const username = ((await first.locator(".admin-expert__meta").first().textContent()) ?? "").split(" ")[0];
    expect(username).toMatch(/^@/);

    // Verified by keyboard from the Unverified list: the row leaves the list, a toast says what
    // happened, and focus goes to the list's heading rather than the page body.
    await first.getByRole("button", { name: /^Verify / }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByText("Expert verified").first().isVisible()).toBe(true);
    await expect.poll(() => page.locator(".admin-expert", { hasText: username }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("experts-title");

    // Searching for that expert (one row) shows the mark.
    await gotoHydrated(page, `/admin/experts?q=${encodeURIComponent(username.slice(1))}`);
    const found = page.locator(".admin-expert", { hasText: username }).first();
    await expect.poll(() => found.getByText("Verified Expert").isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => found.getByText("Verified Expert").isVisible()).toBe(true);
    await screenshot(page, "admin-experts-desktop");

    await found.getByRole("button", { name: /^Feature / }).click();
    await expect.poll(() => found.getByText("Top Expert").isVisible()).toBe(true);
    await found.getByRole("button", { name: /^Unfeature / }).click();
    await expect.poll(() => found.getByText("Top Expert").count()).toBe(0);
    // Losing the mark takes a featured expert off the home page too; an unverified one has no Feature.
    await found.getByRole("button", { name: /^Feature / }).click();
    await expect.poll(() => found.getByText("Top Expert").isVisible()).toBe(true);
    await found.getByRole("button", { name: /^Unverify / }).click();
    await expect.poll(() => page.getByText("Verification removed").first().isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => found.getByRole("button", { name: /^Verify / }).isVisible()).toBe(true);
    expect(await found.getByText("Top Expert").count()).toBe(0);
    expect(await found.getByRole("button", { name: /Feature / }).count()).toBe(0);

    await gotoHydrated(page, "/admin/messages?filter=all");
    expect(await page.getByRole("heading", { name: "Contact messages" }).isVisible()).toBe(true);
    await screenshot(page, "admin-messages-desktop");
  });

  it("lists the experts on a phone without sideways scrolling", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "admin");
    await gotoHydrated(page, "/admin/experts");
    await expectNoHorizontalScroll(page, "admin experts");
    await screenshot(page, "admin-experts-phone");
  });

  it("keeps an edited bio through a save that cannot reach the server, and saves it once online", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings");
    const bio = page.getByLabel("Bio");
    const original = await bio.inputValue();
    const edited = `${original.trim()} Edited offline at ${Date.now()}.`;
    await bio.fill(edited);
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Save Changes" }).click();

    await page.locator("li.toast").getByText(OFFLINE_MESSAGE).waitFor();
    expect(await page.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    expect(await bio.inputValue()).toBe(edited);
    await expect.poll(() => page.getByRole("button", { name: "Save Changes" }).isEnabled()).toBe(true);

    // Online, but the connection drops while the form is on its way.
    await page.context().setOffline(false);
    await page.locator("li.toast").getByRole("button", { name: "Dismiss notification" }).click();
    await expect.poll(() => page.locator("li.toast").getByText(OFFLINE_MESSAGE).isVisible()).toBe(false);
    await page.route("**/expert/settings.data*", (route) => route.abort("connectionfailed"));
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.locator("li.toast").getByText(OFFLINE_MESSAGE).waitFor();
    expect(await page.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    expect(await bio.inputValue()).toBe(edited);
    await page.unroute("**/expert/settings.data*");

    const save = async (text: string) => {
      await bio.fill(text);
      await page.getByRole("button", { name: "Save Changes" }).click();
      await page.locator("li.toast").getByText("Profile updated").waitFor();
      await gotoHydrated(page, "/expert/settings");
      expect(await bio.inputValue()).toBe(text);
    };
    await save(edited);
    // Back as the seed had it, for the other tests.
    await save(original);
  });

  it("asks before a reload drops edits not yet saved, and not once they are saved", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings");
    const asked = recordLeavePrompts(page);
    const location = page.getByLabel("Location");
    const original = await location.inputValue();

    // Looked at, not changed: nothing to ask. Nor for what the page fills in itself before the first
    // touch (the weekly schedule's suggested time zone, say).
    await location.evaluate((input: HTMLInputElement) => {
      input.value = "Filled in by the page";
    });
    await location.click();
    await reloadHydrated(page);
    expect(asked).toEqual([]);
    expect(await location.inputValue()).toBe(original);

    // Changed: the browser asks first; leaving anyway drops the change.
    await location.click();
    await location.fill(`${original} (not saved)`);
    await reloadHydrated(page);
    expect(asked).toEqual(["beforeunload"]);
    expect(await location.inputValue()).toBe(original);

    // Saved: nothing is lost, so nothing is asked.
    const save = async (text: string) => {
      await location.click();
      await location.fill(text);
      await page.getByRole("button", { name: "Save Changes" }).click();
      await page.locator("li.toast").getByText("Profile updated").waitFor();
      await reloadHydrated(page);
      expect(await location.inputValue()).toBe(text);
    };
    await save(`${original} (saved)`);
    expect(asked).toEqual(["beforeunload"]);

    // Changed again while a save is on its way: that change was not sent, so leaving asks.
    const occupation = page.getByLabel("Occupation");
    const originalOccupation = await occupation.inputValue();
    const release = await holdRequests(page, "**/expert/settings.data*", "POST");
    await location.click();
    await location.fill(`${original} (saved again)`);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByRole("button", { name: "Saving..." }).waitFor();
    await occupation.fill(`${originalOccupation} (typed while saving)`);
    release();
    await page.locator("li.toast").getByText("Profile updated").waitFor();
    await page.unroute("**/expert/settings.data*");
    // Past the frame after the save settles, when the measure would be taken again.
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    await reloadHydrated(page);
    expect(asked).toEqual(["beforeunload", "beforeunload"]);
    expect(await occupation.inputValue()).toBe(originalOccupation);
    expect(await location.inputValue()).toBe(`${original} (saved again)`);

    // Back as the seed had it, for the other tests.
    await save(original);
    expect(asked).toHaveLength(2);

    // A price saved as typed shows as stored ("31" as "31.00"): still nothing to ask.
    await page.getByRole("tab", { name: "Pricing" }).click();
    const rate = page.getByLabel("Question Rate (USD)");
    const originalRate = await rate.inputValue();
    const savePrice = async (text: string) => {
      await rate.click();
      await rate.fill(text);
      await page.getByRole("button", { name: "Save Pricing" }).click();
      await page.locator("li.toast").getByText("Profile updated").waitFor();
      await reloadHydrated(page);
      await page.getByRole("tab", { name: "Pricing" }).click();
    };
    const whole = String(Math.round(Number(originalRate)) + 1);
    await savePrice(whole);
    expect(await rate.inputValue()).toBe(`${whole}.00`);
    expect(asked).toHaveLength(2);
    await savePrice(originalRate);
    expect(await rate.inputValue()).toBe(originalRate);
    expect(asked).toHaveLength(2);
  });

  it("asks before a link inside the app drops edits not yet saved, once for all the page's forms", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings");
    const asked: string[] = [];
    let leave = false;
    page.on("dialog", (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      void (leave ? dialog.accept() : dialog.dismiss());
    });

    // Changes in two of its forms: staying keeps both, and asks once.
    const location = page.getByLabel("Location");
    const originalLocation = await location.inputValue();
    await location.click();
    await location.fill(`${originalLocation} (not saved)`);
    await page.getByRole("tab", { name: "Pricing" }).click();
    const rate = page.getByLabel("Question Rate (USD)");
    const originalRate = await rate.inputValue();
    await rate.click();
    await rate.fill("44.00");
    await portalLink(page, "Availability").click();
    expect(asked).toEqual(["confirm: Leave this page? Your changes have not been saved."]);
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    expect(await rate.inputValue()).toBe("44.00");
    // A link to this page with another query (Edit Profile, from the Pricing tab) keeps the forms:
    // nothing to ask.
    await portalLink(page, "Edit Profile").click();
    await page.waitForURL((url) => url.pathname === "/expert/settings" && url.search === "");
    expect(asked).toHaveLength(1);
    expect(await rate.inputValue()).toBe("44.00");
    await page.getByRole("tab", { name: "General Information" }).click();
    expect(await location.inputValue()).toBe(`${originalLocation} (not saved)`);

    // Leaving anyway drops the changes, and asks nothing more there.
    leave = true;
    await portalLink(page, "Availability").click();
    await page.waitForURL((url) => url.pathname === "/expert/availability");
    expect(asked).toHaveLength(2);
    await page.getByRole("heading", { level: 1 }).first().click();
    await reloadHydrated(page);
    expect(asked).toHaveLength(2);
    await gotoHydrated(page, "/expert/settings");
    expect(await location.inputValue()).toBe(originalLocation);
    await page.getByRole("tab", { name: "Pricing" }).click();
    expect(await rate.inputValue()).toBe(originalRate);

    // Nothing changed: a link leaves without a word.
    await rate.click();
    await portalLink(page, "Dashboard").click();
    await page.waitForURL((url) => url.pathname === "/expert/dashboard");
    expect(asked).toHaveLength(2);
  });

  it("asks before a logout drops edits not yet saved", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/account");
    const asked: string[] = [];
    let leave = false;
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void (leave ? dialog.accept() : dialog.dismiss());
    });
    const name = page.getByLabel("Full Name");
    await name.click();
    await name.fill("Not Saved Yet");

    // The account's own Log Out, then the header's: staying keeps the edit, and the session.
    await page.getByRole("main").getByRole("button", { name: "Log Out" }).click();
    await page
      .getByRole("banner")
      .getByRole("button", { name: /Logout/ })
      .click();
    expect(asked).toEqual(["confirm", "confirm"]);
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(new URL(page.url()).pathname).toBe("/expert/account");
    expect(await name.inputValue()).toBe("Not Saved Yet");
    expect((await (await page.request.get("/api/auth/status")).json()).authenticated).toBe(true);

    leave = true;
    await logOut(page);
    expect(asked).toHaveLength(3);
    expect((await (await page.request.get("/api/auth/status")).json()).authenticated).toBe(false);
  });

  it("asks before Back or Forward to another of the app's pages drops edits not yet saved", async () => {
    const page = await settingsFromDashboard();
    const asked: string[] = [];
    let leave = false;
    page.on("dialog", (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      void (leave ? dialog.accept() : dialog.dismiss());
    });
    const askedOnce = async (count: number) => {
      await expect.poll(() => asked.length).toBe(count);
      await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    };

    // Staying keeps the page, its address and the edit.
    const location = page.getByLabel("Location");
    const original = await location.inputValue();
    await location.click();
    await location.fill(`${original} (not saved)`);
    await page.goBack();
    await askedOnce(1);
    expect(asked).toEqual(["confirm: Leave this page? Your changes have not been saved."]);
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    expect(await location.inputValue()).toBe(`${original} (not saved)`);

    // Leaving anyway goes back, and drops the edit.
    leave = true;
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/expert/dashboard");
    await askedOnce(2);
    await page.getByRole("heading", { level: 1 }).first().waitFor();

    // Forward again: nothing changed, so Back leaves without a word.
    await page.goForward();
    await page.waitForURL((url) => url.pathname === "/expert/settings");
    expect(await location.inputValue()).toBe(original);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/expert/dashboard");
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(asked).toHaveLength(2);
  });

  it("asks before Back from a page where the skip link was used, which adds no history entry", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/dashboard");
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    const settle = () => page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    const entries = () => page.evaluate(() => window.history.length);
    const skipToContent = async () => {
      const before = await entries();
      await page.getByRole("link", { name: "Skip to content" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main-content");
      expect(await entries()).toBe(before);
    };
    const location = page.getByLabel("Location");

    // On the page before: Back from settings comes back to it, and asks first.
    await skipToContent();
    await portalLink(page, "Edit Profile").click();
    await page.waitForURL((url) => url.pathname === "/expert/settings");
    const original = await location.inputValue();
    await location.click();
    await location.fill(`${original} (not saved)`);
    await page.goBack();
    await expect.poll(() => asked).toEqual(["confirm"]);
    await settle();
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    expect(await location.inputValue()).toBe(`${original} (not saved)`);

    // On this page: Back still leaves it (for the dashboard), so it asks; staying stays.
    await skipToContent();
    await page.goBack();
    await expect.poll(() => asked).toEqual(["confirm", "confirm"]);
    await settle();
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    expect(await location.inputValue()).toBe(`${original} (not saved)`);
  });

  it("asks on Back while the page's own tab is loading", async () => {
    const page = await settingsFromDashboard();
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    const location = page.getByLabel("Location");
    await location.click();
    await location.fill(`${await location.inputValue()} (not saved)`);

    const release = await holdRequests(page, "**/expert/settings.data*", "GET");
    await page.getByRole("tab", { name: "Pricing" }).click();
    await expect.poll(() => page.evaluate(() => window.__remixRouter.state.navigation.state)).toBe("loading");
    await page.goBack();
    await expect.poll(() => asked).toEqual(["confirm"]);
    release();
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    await page.getByRole("tab", { name: "General Information" }).click();
    expect(await location.inputValue()).toMatch(/ \(not saved\)$/);
    await page.unroute("**/expert/settings.data*");
  });

  it("asks nothing more on Back while the page a link was agreed to is loading", async () => {
    const page = await settingsFromDashboard();
    const asked = recordLeavePrompts(page);
    const location = page.getByLabel("Location");
    await location.click();
    await location.fill(`${await location.inputValue()} (not saved)`);

    const release = await holdRequests(page, "**/expert/account.data*", "GET");
    await portalLink(page, "Account").click();
    await expect.poll(() => asked).toEqual(["confirm"]);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/expert/dashboard");
    await page.getByRole("heading", { level: 1, name: "Expert Dashboard" }).waitFor();
    release();
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(asked).toEqual(["confirm"]);
    expect(new URL(page.url()).pathname).toBe("/expert/dashboard");
    await page.unroute("**/expert/account.data*");
  });

  it("keeps a price typed while the pricing save is on its way, and asks before it is dropped", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings?tab=pricing");
    const asked = recordLeavePrompts(page);
    const rate = page.getByLabel("Question Rate (USD)");
    const session = page.getByLabel("Session Price (USD)");
    const [originalRate, originalSession] = [await rate.inputValue(), await session.inputValue()];
    const savePrices = async (rateText: string, sessionText: string) => {
      await rate.fill(rateText);
      await session.fill(sessionText);
      await page.getByRole("button", { name: "Save Pricing" }).click();
      await page.locator("li.toast").getByText("Profile updated").waitFor();
    };

    const release = await holdRequests(page, "**/expert/settings.data*", "POST");
    const newRate = (Math.round(Number(originalRate)) + 2).toFixed(2);
    await rate.fill(newRate);
    await page.getByRole("button", { name: "Save Pricing" }).click();
    await page.getByRole("button", { name: "Saving..." }).waitFor();
    await session.fill("123.45");
    release();
    await page.locator("li.toast").getByText("Profile updated").waitFor();
    await page.unroute("**/expert/settings.data*");
    // Past the page's data loading again with the saved prices, which would have replaced it.
    await page.evaluate(() => new Promise((done) => setTimeout(done, 500)));
    expect(await session.inputValue()).toBe("123.45");
    expect(await rate.inputValue()).toBe(newRate);
    await reloadHydrated(page);
    expect(asked).toEqual(["beforeunload"]);
    await page.getByRole("tab", { name: "Pricing" }).click();
    expect(await rate.inputValue()).toBe(newRate);
    expect(await session.inputValue()).toBe(originalSession);

    // Back as the seed had it, for the other tests.
    await savePrices(originalRate, originalSession);
  });

  it("asks nothing on a settings page reached by a link and left untouched", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/dashboard");
    const asked = recordLeavePrompts(page);
    // Rendered in the browser, not by the server: its selects carry no server state to compare with.
    for (const [link, path] of [
      ["Availability", "/expert/availability"],
      ["Edit Profile", "/expert/settings"],
    ]) {
      await page.getByRole("navigation", { name: "Expert portal" }).getByRole("link", { name: link }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole("heading", { level: 1 }).first().click();
      await reloadHydrated(page);
      expect(asked, path).toEqual([]);
      await gotoHydrated(page, "/expert/dashboard");
    }
  });

  it("puts back an edit sent after the session ended, once the expert has signed in again", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings");
    const bio = page.getByLabel("Bio");
    const original = await bio.inputValue();
    const edited = `${original.trim()} Edited as the session ended, ${Date.now()}.`;
    await bio.fill(edited);
    await submitAfterSessionEnds(page, "Save Changes", "/expert/login");

    await signInAs(page, "expert", { redirectTo: "/expert/settings" });
    expect(new URL(page.url()).pathname).toBe("/expert/settings");
    await expect.poll(() => bio.inputValue()).toBe(edited);
    await page.locator("li.toast").getByText("Your changes are back").waitFor();
    // Put back, not saved: leaving asks first, and the profile still has the original.
    const asked = recordLeavePrompts(page);
    await bio.click();
    await reloadHydrated(page);
    expect(asked).toEqual(["beforeunload"]);
    expect(await bio.inputValue()).toBe(original);
  });

  it("puts back prices sent after the session ended, once the expert has signed in again", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings?tab=pricing");
    const rate = page.getByLabel("Question Rate (USD)");
    const original = await rate.inputValue();
    await rate.fill("33.00");
    await submitAfterSessionEnds(page, "Save Pricing", "/expert/login");

    await signInAs(page, "expert", { redirectTo: "/expert/settings?tab=pricing" });
    await expect.poll(() => rate.inputValue()).toBe("33.00");
    await page.locator("li.toast").getByText("Your changes are back").waitFor();
    // Put back, not saved.
    await gotoHydrated(page, "/expert/settings?tab=pricing");
    expect(await rate.inputValue()).toBe(original);
  });

  it("keeps a settings change typed before the page's script ran", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    const release = await holdScripts(page);
    await page.goto("/expert/settings", { waitUntil: "domcontentloaded" });
    const customUrl = page.getByLabel("Custom URL");
    const category = page.getByLabel("Primary Category");
    const before = await category.inputValue();
    const other = await category
      .locator("option")
      .evaluateAll(
        (options, chosen) =>
          options
            .map((option) => (option as HTMLOptionElement).value)
            .find((value) => value && value !== chosen),
        before,
      );
    await customUrl.fill("typed-before-the-script");
    await category.selectOption(other ?? "");
    release();
    await page.waitForSelector("html[data-hydrated]");
    // Nothing is saved: the form only has to keep what is in it.
    expect(await customUrl.inputValue()).toBe("typed-before-the-script");
    expect(await category.inputValue()).toBe(other);
    // A new address is warned about: links already shared to the old one stop working.
    expect(await page.getByText("/demo-expert will stop working once you save.").isVisible()).toBe(true);
    await customUrl.fill("demo-expert");
    expect(await page.getByText("will stop working").count()).toBe(0);
  });

  it("asks before a reload drops an edit typed before the page's script ran", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "expert");
    const release = await holdScripts(page);
    await page.goto("/expert/settings", { waitUntil: "domcontentloaded" });
    const location = page.getByLabel("Location");
    const original = await location.inputValue();
    await location.fill(`${original} (typed early)`);
    release();
    await page.waitForSelector("html[data-hydrated]");
    const asked = recordLeavePrompts(page);
    // No touch since the script ran: the edit is still one.
    await reloadHydrated(page);
    expect(asked).toEqual(["beforeunload"]);
    expect(await location.inputValue()).toBe(original);
  });

  it("keeps a weekly schedule chosen before the page's script ran", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    const release = await holdScripts(page);
    await page.goto("/expert/availability", { waitUntil: "domcontentloaded" });
    const zone = page.getByLabel("Time zone");
    const chosenZone = (await zone.inputValue()) === "Europe/Oslo" ? "Asia/Tokyo" : "Europe/Oslo";
    await zone.selectOption(chosenZone);
    const monday = page.getByRole("checkbox", { name: "Monday" });
    if (!(await monday.isChecked())) await monday.check();
    const mondayFrom = page.getByLabel("Monday from");
    const chosenStart = (await mondayFrom.inputValue()) === "07:00" ? "08:00" : "07:00";
    await mondayFrom.selectOption(chosenStart);
    const wednesday = page.getByRole("checkbox", { name: "Wednesday" });
    const wednesdayWas = await wednesday.isChecked();
    await wednesday.setChecked(!wednesdayWas);
    release();
    await page.waitForSelector("html[data-hydrated]");
    // Nothing is saved: the form only has to keep what is in it.
    expect(await zone.inputValue()).toBe(chosenZone);
    expect(await mondayFrom.inputValue()).toBe(chosenStart);
    expect(await wednesday.isChecked()).toBe(!wednesdayWas);
    expect(await page.getByLabel("Wednesday from").count()).toBe(wednesdayWas ? 0 : 1);
  });
});
