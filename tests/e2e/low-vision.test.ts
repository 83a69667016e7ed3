/**
 * What axe cannot see, for people who zoom, space text wider or use a high-contrast theme:
 * - a window 320 x 256 px (1280 x 1024 at 400% zoom) keeps room for the page (WCAG 1.4.10);
 * - wider letter, word and line spacing (WCAG 1.4.12) pushes nothing past the window's edge;
 * - in forced colours, selected tabs, steps, filters, days and switches still look selected (1.4.11).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP } from "./harness";
import { layoutProblems } from "./support/layout";
import { gotoHydrated } from "./support/pages";
import { pageAs } from "./support/sessions";

const ZOOMED_400 = { width: 320, height: 256 };
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
  p { margin-bottom: 2em !important; }`;

/** How much of the window's height fixed and sticky elements cover, at the current scroll. */
function coveredHeight(page: Page) {
  return page.evaluate(() => {
    let covered = 0;
    for (const element of document.querySelectorAll("body *")) {
      const { position } = getComputedStyle(element);
      if (position !== "fixed" && position !== "sticky") continue;
      const box = element.getBoundingClientRect();
      const top = Math.max(box.top, 0);
      const bottom = Math.min(box.bottom, window.innerHeight);
      // A sticky element only covers the page once it is stuck (the header at the top).
      if (bottom > top && (position === "fixed" || box.top <= 0)) covered += bottom - top;
    }
    return covered;
  });
}

/** An element in a selected state is painted apart from one that is not (colours, border). */
async function expectMarkedApart(page: Page, selected: string, other: string) {
  const paint = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const style = getComputedStyle(element);
        return [style.backgroundColor, style.color, style.borderBottomColor, style.borderBottomStyle].join(
          " | ",
        );
      });
  expect(await paint(selected), `${selected} against ${other}`).not.toBe(await paint(other));
}

/** A role's page in a high-contrast theme. */
async function forcedColoursPageAs(role: "client" | "expert" | "admin") {
  const page = await pageAs(role, DESKTOP);
  await page.emulateMedia({ forcedColors: "active" });
  return page;
}

describe("zoomed to 400% (a window 320 x 256)", () => {
  it("lets the header and its open menu scroll away, so every link can be reached", async () => {
    const page = await pageAs("client", ZOOMED_400);
    await gotoHydrated(page, "/about");
    await page.getByRole("button", { name: "Open menu" }).click();
    const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
    expect(await links.count()).toBeGreaterThan(3);
    for (const link of await links.all()) {
      await link.focus();
      const box = await link.boundingBox();
      expect(box, (await link.textContent()) ?? "").not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(ZOOMED_400.height);
    }
    await page.mouse.wheel(0, 400);
    expect(await coveredHeight(page)).toBe(0);
  });

  it("keeps a profile's page visible: its Ask and Book bar sits at the end of the page", async () => {
    const page = await pageAs("anonymous", ZOOMED_400);
    await gotoHydrated(page, "/demo-expert");
    await page.mouse.wheel(0, 300);
    expect(await coveredHeight(page)).toBeLessThanOrEqual(ZOOMED_400.height / 4);
    const ask = page.getByRole("region", { name: "Ask or book" }).getByRole("link").first();
    await ask.scrollIntoViewIfNeeded();
    expect(await ask.isVisible()).toBe(true);
  });
});

describe("with text twice as large (the browser's text size at 200%)", () => {
  const PUBLIC_PAGES = [
    "/",
    "/experts",
    "/category/sales",
    "/demo-expert",
    "/about",
    "/contact",
    "/newsletter",
    "/subscribe",
    "/auth",
    "/become-expert",
    "/privacy-policy",
  ];
  for (const width of [320, 390]) {
    it(`keeps every public page inside a ${width} px phone, the skip link out of sight until focused`, async () => {
      const page = await pageAs("anonymous", { width, height: 800, isMobile: true });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Page.enable");
      // What the browser's own text-size setting does: rem and em grow, px stay.
      await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
      for (const path of PUBLIC_PAGES) {
        await gotoHydrated(page, path);
        const layout = await layoutProblems(page);
        expect(layout.horizontalOverflow, `${path} scrolls sideways`).toBeNull();
        const skip = await page.getByRole("link", { name: "Skip to content" }).boundingBox();
        expect(skip === null || skip.y + skip.height <= 0, `${path}: the skip link shows`).toBe(true);
      }
    });
  }
});

describe("signed in, with text twice as large", () => {
  const SIGNED_IN_PAGES = {
    client: [
      "/dashboard",
      "/dashboard/questions",
      "/dashboard/bookings",
      "/dashboard/settings",
      "/notifications",
    ],
    subscriber: ["/dashboard"],
    expert: [
      "/expert/dashboard",
      "/expert/questions",
      "/expert/bookings",
      "/expert/availability",
      "/expert/earnings",
      "/expert/earnings/analytics",
      "/expert/settings",
      "/expert/share",
      "/expert/account",
    ],
    admin: ["/admin", "/admin/dashboard", "/admin/experts", "/admin/messages", "/admin/runs"],
  } as const;
  for (const width of [320, 390]) {
    it(`keeps every signed-in page inside a ${width} px phone, a question's own page too`, async () => {
      const problems: string[] = [];
      for (const [role, paths] of Object.entries(SIGNED_IN_PAGES)) {
        const page = await pageAs(role as keyof typeof SIGNED_IN_PAGES, {
          width,
          height: 800,
          isMobile: true,
        });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send("Page.enable");
        await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
        const visit = async (path: string) => {
          await gotoHydrated(page, path);
          const layout = await layoutProblems(page);
          if (layout.horizontalOverflow)
            problems.push(`${role} ${path}: ${JSON.stringify(layout.horizontalOverflow)}`);
        };
        for (const path of paths) await visit(path);
        if (role === "client") {
          await gotoHydrated(page, "/dashboard/questions");
          const question = await page.locator('a[href^="/questions/"]').first().getAttribute("href");
          await visit(question!);
        }
        await page.context().close();
      }
      expect(problems).toEqual([]);
    });
  }

  it("fits the subscription's Cancel dialog's buttons and their words on a 320 x 568 phone", async () => {
    const page = await pageAs("subscriber", { width: 320, height: 568, isMobile: true });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.enable");
    await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
    await gotoHydrated(page, "/dashboard");
    await page.getByRole("button", { name: "Cancel subscription" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const clipped = await dialog
      .locator(".btn")
      .evaluateAll((buttons) =>
        buttons
          .filter((button) => button.scrollWidth > button.clientWidth + 1)
          .map((button) => `${button.textContent}: ${button.scrollWidth} in ${button.clientWidth}`),
      );
    expect(clipped).toEqual([]);
    const body = await dialog.locator(".dialog-body").evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }));
    expect(body.scroll).toBeLessThanOrEqual(body.client + 1);
  });
});

describe("with text spaced wider", () => {
  for (const role of ["anonymous", "client", "expert", "admin"] as const) {
    it(`keeps every header control inside a 1280 px window (${role})`, async () => {
      const page = await pageAs(role, DESKTOP);
      await gotoHydrated(page, "/about");
      await page.addStyleTag({ content: TEXT_SPACING });
      const layout = await layoutProblems(page);
      expect(layout.horizontalOverflow, "sticks out with text spacing").toBeNull();
      const banner = page.getByRole("banner");
      for (const control of await banner.locator("a, button").all()) {
        if (!(await control.isVisible())) continue;
        const box = await control.boundingBox();
        expect(box!.x + box!.width, (await control.textContent()) ?? "").toBeLessThanOrEqual(DESKTOP.width);
      }
    });
  }
});

describe("in forced colours (a high-contrast theme)", () => {
  it("marks the selected tab, step, filter, day and switch apart from the others", async () => {
    const client = await forcedColoursPageAs("client");
    await gotoHydrated(client, "/dashboard");
    await expectMarkedApart(
      client,
      '[role="tab"][data-state="active"]',
      '[role="tab"][data-state="inactive"]',
    );

    await gotoHydrated(client, "/become-expert");
    await expectMarkedApart(
      client,
      '[data-state="current"] .wizard-steps__number',
      '[data-state="todo"] .wizard-steps__number',
    );

    const expert = await forcedColoursPageAs("expert");
    await gotoHydrated(expert, "/expert/availability");
    const toggle = expert.getByRole("switch").first();
    const track = () =>
      toggle.evaluate((element) => {
        const style = getComputedStyle(element);
        return { border: style.borderTopStyle, background: style.backgroundColor };
      });
    const before = await track();
    // The track is drawn (a border) and its colour follows the state.
    expect(before.border).toBe("solid");
    await toggle.click();
    await expect.poll(async () => (await track()).background).not.toBe(before.background);
    await toggle.click();
    await expect.poll(async () => (await track()).background).toBe(before.background);

    await gotoHydrated(expert, "/expert/bookings");
    const day = expert.locator(".calendar-day:not(.calendar-day--disabled):not(.calendar-day--today)");
    await day.first().click();
    await expectMarkedApart(
      expert,
      ".calendar-day--selected",
      ".calendar-day:not(.calendar-day--selected):not(.calendar-day--disabled):not(.calendar-day--today)",
    );

    const admin = await forcedColoursPageAs("admin");
    await gotoHydrated(admin, "/admin");
    await expectMarkedApart(
      admin,
      '.filter-link[aria-current="page"]',
      '.filter-link:not([aria-current="page"])',
    );
  });
});
