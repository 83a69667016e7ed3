/**
 * Representative flows by keyboard alone: the skip link, the phone menu, tabs, the FAQ accordion and
 * a modal dialog (focus moves in, stays in, and returns to its trigger), with a visible focus
 * indicator on what has focus, and no serious accessibility violation inside the open dialog.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE } from "./harness";
import { demoExpertId, dropRequestsOnCue, gotoHydrated } from "./support/pages";
import { pageAs } from "./support/sessions";
import { seriousA11yViolations } from "./support/watch";

/** What has focus: tag, accessible-ish name, and whether a focus indicator is drawn. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none";
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.getAttribute("aria-label") ?? element.innerText ?? "").trim().replace(/\s+/g, " "),
      id: element.id,
      visibleFocus: outline || ring,
      inDialog: Boolean(element.closest('[role="dialog"], [role="alertdialog"]')),
    };
  });
}

/** Resolves a few animation frames later (a refused submission moves focus two frames after it). */
function framesLater(page: Page, frames = 4) {
  return page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(count);
      }),
    frames,
  );
}

/** Presses Tab until `match` has focus (at most `limit` times). */
async function tabTo(page: Page, match: (text: string) => boolean, limit = 60) {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now && match(now.text)) return now;
  }
  throw new Error("never reached the control by Tab");
}

/** WCAG relative luminance of an `rgb()`/`rgba()` colour or a `#rrggbb` one. */
function luminance(colour: string) {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  const channels = hex
    ? [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16))
    : (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const [r, g, b] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The focus ring drawn around `control` once focused, with the colours it must stand out from: the
 * control's own background and the first opaque one behind it.
 */
async function focusRing(control: Locator) {
  await control.focus();
  return control.evaluate((element) => {
    const opaque = (colour: string) => colour !== "transparent" && !/rgba\(.*,\s*0(\.\d+)?\)$/.test(colour);
    let ground = "rgb(255, 255, 255)";
    for (let node = element.parentElement; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (opaque(background)) {
        ground = background;
        break;
      }
    }
    const style = getComputedStyle(element);
    return {
      focusVisible: element.matches(":focus-visible"),
      ring: style.outlineStyle === "none" ? null : style.outlineColor,
      around: [style.backgroundColor, ground].filter(opaque),
    };
  });
}

describe("using the site by keyboard", () => {
  it("skips to the content with the first Tab, with a visible focus ring", async () => {
    const page = await pageAs("anonymous", DESKTOP);
    await gotoHydrated(page, "/about");
    const entries = await page.evaluate(() => history.length);
    await page.keyboard.press("Tab");
    const skip = await focused(page);
    expect(skip?.text).toBe("Skip to content");
    expect(skip?.visibleFocus).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await focused(page))?.id).toBe("main-content");
    // And it stays there. No history entry is added: the app's router could not hold a Back over
    // a bare fragment's entry (as the leave warning needs).
    await framesLater(page);
    expect((await focused(page))?.id).toBe("main-content");
    expect(await page.evaluate(() => [location.hash, history.length])).toEqual(["", entries]);
  });

  it("draws a focus ring at least 3:1 against white, the page and the control it surrounds", async () => {
    const LIGHT = ["#ffffff", "#f6f7fb"];
    // The hero's gradient, end to end: its ring sits on it, 2 px off the (white or outlined) buttons.
    const HERO = ["#23338f", "#3450d4", "#0f8a6a"];
    const page = await pageAs("anonymous", DESKTOP);
    const banner = page.getByRole("banner");
    const footer = page.getByRole("contentinfo");
    // [page, control, colours besides the control's own background and the ground behind it]
    const checks: Array<[string, () => Locator, string[], "and its colours" | "on the hero"]> = [
      ["/", () => banner.getByRole("link", { name: "Login" }), LIGHT, "and its colours"],
      ["/", () => banner.getByRole("link", { name: "Sign Up" }), LIGHT, "and its colours"],
      ["/", () => page.locator("#category-track a").first(), LIGHT, "and its colours"],
      ["/", () => page.locator(".hero a.btn").first(), HERO, "on the hero"],
      ["/", () => page.locator(".hero a.btn").last(), HERO, "on the hero"],
      // The dark footer: its own ground and the field's dark fill.
      ["/", () => footer.getByRole("link").first(), [], "and its colours"],
      ["/", () => footer.getByRole("textbox").first(), [], "and its colours"],
      ["/experts", () => page.getByRole("searchbox", { name: "Search experts" }), LIGHT, "and its colours"],
      ["/experts", () => page.locator(".filters-menu > summary"), LIGHT, "and its colours"],
      ["/experts", () => page.getByRole("link", { name: /View Profile/ }).first(), LIGHT, "and its colours"],
    ];
    const weak: string[] = [];
    let path = "";
    for (const [at, control, against, mode] of checks) {
      if (at !== path) {
        path = at;
        await gotoHydrated(page, path);
      }
      // The browser shows :focus-visible rings for keyboard users: arrive from the keyboard.
      await page.keyboard.press("Shift");
      const ring = await focusRing(control());
      expect(ring.focusVisible, `${at} ${control()}`).toBe(true);
      if (!ring.ring) {
        weak.push(`${at} ${control()}: no ring`);
        continue;
      }
      for (const colour of mode === "on the hero" ? against : [...against, ...ring.around]) {
        const ratio = contrast(ring.ring, colour);
        if (ratio < 3) weak.push(`${at} ${control()}: ${ring.ring} on ${colour} is ${ratio.toFixed(2)}:1`);
      }
    }
    // A danger (red) button in a white card.
    const client = await pageAs("client", DESKTOP);
    await gotoHydrated(client, "/dashboard/settings");
    await client.keyboard.press("Shift");
    const danger = await focusRing(client.getByRole("button", { name: "Delete Account" }));
    expect(danger.around.length).toBe(2);
    for (const colour of [...LIGHT, ...danger.around]) {
      const ratio = contrast(danger.ring ?? "#ffffff", colour);
      if (ratio < 3) weak.push(`Delete Account: ${danger.ring} on ${colour} is ${ratio.toFixed(2)}:1`);
    }
    expect(weak).toEqual([]);
  });

  it("opens the phone menu, follows a link from it and closes it, all by keyboard", async () => {
    const page = await pageAs("anonymous", PHONE);
    await gotoHydrated(page, "/about");
    const toggle = await tabTo(page, (text) => text === "Open menu");
    expect(toggle.visibleFocus).toBe(true);
    await page.keyboard.press("Enter");
    const menuButton = page.getByRole("button", { name: "Close menu" });
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("true");
    const link = await tabTo(page, (text) => text === "Browse Experts", 10);
    expect(link.visibleFocus).toBe(true);
    await Promise.all([page.waitForURL((url) => url.pathname === "/experts"), page.keyboard.press("Enter")]);
    await expect
      .poll(() => page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded"))
      .toBe("false");
  });

  it("moves through the header by Tab in the order it is laid out, on one row or two, signed out and in", async () => {
    /** Tabs from the skip link through the banner, noting where each stop sits on the screen. */
    const headerStops = async (page: Page) => {
      await page.keyboard.press("Tab");
      expect((await focused(page))?.text).toBe("Skip to content");
      const stops: Array<{ name: string; top: number; bottom: number; left: number }> = [];
      for (let press = 0; press < 30; press++) {
        await page.keyboard.press("Tab");
        const stop = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element?.closest('[role="banner"], body > header')) return null;
          const box = element.getBoundingClientRect();
          const name = (element.getAttribute("aria-label") ?? element.innerText).trim().replace(/\s+/g, " ");
          return { name, top: box.top, bottom: box.bottom, left: box.left };
        });
        if (!stop) return stops;
        stops.push(stop);
        // The phone menu opens from its toggle, its links right after it.
        if (stop.name === "Open menu") {
          await page.keyboard.press("Enter");
          await expect.poll(async () => (await focused(page))?.text).toBe("Close menu");
        }
      }
      throw new Error("Tab never left the header");
    };
    const outOfOrder = (stops: Awaited<ReturnType<typeof headerStops>>) =>
      stops.slice(1).flatMap((stop, at) => {
        const before = stops[at];
        const middle = (stop.top + stop.bottom) / 2;
        const below = middle > before.bottom;
        const rightOnSameRow = middle > before.top && middle < before.bottom && stop.left > before.left;
        return below || rightOnSameRow ? [] : [`${before.name} → ${stop.name}`];
      });

    for (const role of ["anonymous", "expert"] as const) {
      for (const viewport of [DESKTOP, { width: 1024, height: 768 }, PHONE]) {
        const page = await pageAs(role, viewport);
        await gotoHydrated(page, "/about");
        const stops = await headerStops(page);
        const where = `${role} at ${viewport.width} px: ${stops.map((stop) => stop.name).join(", ")}`;
        // Every header control, the seven links among them, and nothing visited out of its place.
        expect(stops.length, where).toBe((role === "anonymous" ? 3 : 4) + 7 + (viewport === PHONE ? 1 : 0));
        expect(
          stops.map((stop) => stop.name),
          where,
        ).toContain("Become an Expert");
        expect(outOfOrder(stops), where).toEqual([]);
        await page.context().close();
      }
    }
  });

  it("puts focus on the new page's heading after following a link, and leaves it on the page's own tabs", async () => {
    const page = await pageAs("client", DESKTOP);
    await gotoHydrated(page, "/about");
    await tabTo(page, (text) => text === "Browse Experts", 20);
    await Promise.all([page.waitForURL((url) => url.pathname === "/experts"), page.keyboard.press("Enter")]);
    await expect.poll(async () => (await focused(page))?.tag).toBe("h1");
    expect((await focused(page))?.text).toBe("Browse Experts");
    expect((await focused(page))?.visibleFocus).toBe(true);

    // A link inside the page that goes away with it: focus goes to the next page's heading, not the body.
    const profile = page.getByRole("link", { name: /View Profile/ }).first();
    await profile.focus();
    await Promise.all([page.waitForURL((url) => url.pathname !== "/experts"), page.keyboard.press("Enter")]);
    await expect.poll(async () => (await focused(page))?.tag).toBe("h1");

    // The dashboard's section links stay on the page: focus stays on the one pressed.
    await gotoHydrated(page, "/dashboard");
    await page.getByRole("link", { name: "Questions", exact: true }).focus();
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/dashboard/questions"),
      page.keyboard.press("Enter"),
    ]);
    await framesLater(page);
    expect(await focused(page)).toMatchObject({ tag: "a", text: "Questions" });
  });

  it("puts focus on the section a header link points to, from another page and from the same one", async () => {
    const page = await pageAs("anonymous", DESKTOP);
    await gotoHydrated(page, "/about");
    await tabTo(page, (text) => text === "FAQ", 20);
    await Promise.all([page.waitForURL((url) => url.hash === "#faq"), page.keyboard.press("Enter")]);
    await expect.poll(async () => (await focused(page))?.id).toBe("faq");
    expect((await focused(page))?.text).toBe("Frequently Asked Questions");
    expect((await focused(page))?.visibleFocus).toBe(true);
    // The next Tab carries on inside the FAQ, not back at the top of the page.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest(".faq")))).toBe(true);

    // From the phone menu on the home page itself: the menu closes, focus still reaches the section.
    const phone = await pageAs("anonymous", PHONE);
    await gotoHydrated(phone, "/");
    await phone.getByRole("button", { name: "Open menu" }).click();
    await phone.getByRole("link", { name: "How It Works" }).focus();
    await Promise.all([
      phone.waitForURL((url) => url.hash === "#how-it-works"),
      phone.keyboard.press("Enter"),
    ]);
    await expect.poll(async () => (await focused(phone))?.id).toBe("how-it-works");
  });

  it("switches the auth screen's tabs with the arrow keys, fields labelled", async () => {
    const page = await pageAs("anonymous", DESKTOP);
    await gotoHydrated(page, "/auth");
    const signIn = page.getByRole("tab", { name: "Sign In" });
    await signIn.focus();
    await page.keyboard.press("ArrowRight");
    const register = page.getByRole("tab", { name: "Register" });
    await expect.poll(() => register.getAttribute("aria-selected")).toBe("true");
    expect((await focused(page))?.text).toBe("Register");
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.getByLabel("Username").isVisible()).toBe(true);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => signIn.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("End");
    await expect.poll(() => register.getAttribute("aria-selected")).toBe("true");
  });

  it("leaves the booking calendar with Tab or Shift+Tab from the day the arrow keys reached", async () => {
    const page = await pageAs("client", DESKTOP);
    await gotoHydrated(page, `/book/${await demoExpertId(page)}`);
    const calendar = page.locator(".month-calendar");
    await calendar.locator('button.calendar-day[tabindex="0"]').focus();
    const focusedDate = () => page.evaluate(() => document.activeElement?.getAttribute("data-date") ?? null);
    const start = await focusedDate();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const reached = await focusedDate();
    expect(reached).not.toBe(start);
    // Shift+Tab leaves the grid, to the month's buttons, rather than landing on the first day again.
    await page.keyboard.press("Shift+Tab");
    expect(await focusedDate()).toBeNull();
    expect((await focused(page))?.text).toMatch(/^(Next|Previous) month/);
    // Tab comes back to the day it left, and the next Tab leaves the grid.
    await page.keyboard.press("Tab");
    expect(await focusedDate()).toBe(reached);
    await page.keyboard.press("Tab");
    expect(await focusedDate()).toBeNull();
  });

  it("opens and closes FAQ answers with Enter and moves between questions with the arrows", async () => {
    const page = await pageAs("anonymous", DESKTOP);
    await gotoHydrated(page, "/#faq");
    const faq = page.locator("section.faq");
    const first = faq.getByRole("button", { name: "How quickly will I get an answer?" });
    await first.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => faq.getByRole("region").first().isVisible()).toBe(true);
    await page.keyboard.press("ArrowDown");
    const second = await focused(page);
    expect(second?.text).toBe("Can I ask a follow-up question?");
    await page.keyboard.press("Enter");
    // One answer at a time.
    await expect.poll(() => first.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("Enter");
    expect(await faq.locator('[aria-expanded="true"]').count()).toBe(0);
  });

  it("traps focus in the delete-account dialog and gives it back to its trigger", async () => {
    const page = await pageAs("expert", DESKTOP);
    await gotoHydrated(page, "/expert/account");
    const trigger = page.getByRole("button", { name: "Delete Account" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Are you absolutely sure?" });
    await dialog.waitFor();
    await expect.poll(async () => (await focused(page))?.inDialog).toBe(true);
    expect(await seriousA11yViolations(page, { include: '[role="dialog"]' })).toEqual([]);

    // Tab and Shift+Tab never leave the dialog.
    const seen = new Set<string>();
    for (let press = 0; press < 6; press++) {
      await page.keyboard.press("Tab");
      const now = await focused(page);
      expect(now?.inDialog).toBe(true);
      expect(now?.visibleFocus).toBe(true);
      seen.add(now?.text ?? "");
    }
    expect(seen).toEqual(new Set(["Cancel", "Delete"]));
    await page.keyboard.press("Shift+Tab");
    expect((await focused(page))?.inDialog).toBe(true);

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    // Radix gives focus back as its focus scope unmounts, a moment after the dialog leaves the page.
    await expect.poll(async () => (await focused(page))?.text).toBe("Delete Account");
  });

  it("keeps focus inside the delete-account dialog while its send is on its way", async () => {
    const page = await pageAs("expert", DESKTOP);
    await gotoHydrated(page, "/expert/account");
    // Every POST is held, then dropped before it reaches the server: the demo account stays.
    const drop = await dropRequestsOnCue(page, "**/*", { method: "POST" });
    await page.getByRole("button", { name: "Delete Account" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Are you absolutely sure?" });
    await dialog.getByRole("button", { name: "Delete", exact: true }).focus();
    await page.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Deleting..." }).waitFor();
    // Delete is disabled, and the browser would put focus on the page behind the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("dialog");
    // Focus there reads out the dialog's name and description: a status says what is happening.
    await expect.poll(() => dialog.getByRole("status").textContent()).toBe("Deleting...");
    expect(await dialog.getByRole("button", { name: "Cancel" }).isDisabled()).toBe(true);
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(true);
    drop();
    await page.locator("li.toast").getByText("We couldn't tell whether your account was deleted").waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(async () => (await focused(page))?.text).toBe("Delete Account");
    await page.unroute("**/*");
  });

  it("gives focus back to the row's button that opened a dialog with no trigger of its own", async () => {
    const page = await pageAs("expert", PHONE);
    await gotoHydrated(page, "/expert/questions");
    // Answer or View: one dialog serves every row of the questions desk.
    const opener = page.getByRole("tabpanel").getByRole("button").first();
    const name = (await opener.textContent())?.trim();
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await expect.poll(async () => (await focused(page))?.inDialog).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(async () => (await focused(page))?.text).toBe(name);
    expect((await focused(page))?.visibleFocus).toBe(true);
  });

  it("keeps focus on the browse page when a filter or a page link takes itself away", async () => {
    const page = await pageAs("anonymous", DESKTOP);
    await gotoHydrated(page, "/experts");
    const lost = () => page.evaluate(() => document.activeElement === document.body);

    // A price preset, chosen in the Filters menu, which closes behind it.
    await page.locator("details.filters-menu summary").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "$0 - $100" }).focus();
    await Promise.all([page.waitForURL(/maxPrice=100/), page.keyboard.press("Enter")]);
    await framesLater(page);
    expect(await lost()).toBe(false);

    // The chip that removes that filter.
    await page.getByRole("link", { name: "Remove filter Price: Up to $100" }).focus();
    await Promise.all([
      page.waitForURL((url) => !url.search.includes("maxPrice")),
      page.keyboard.press("Enter"),
    ]);
    await framesLater(page);
    expect(await lost()).toBe(false);

    // Next, to the last page, where there is no Next.
    for (;;) {
      const next = page.getByRole("link", { name: "Next", exact: true });
      if ((await next.count()) === 0) break;
      const current = page.url();
      await next.focus();
      await Promise.all([page.waitForURL((url) => url.href !== current), page.keyboard.press("Enter")]);
      await framesLater(page);
      expect(await lost()).toBe(false);
    }
    expect(new URL(page.url()).searchParams.get("page")).not.toBeNull();
  });

  it("keeps focus on Copy when the browser refuses the clipboard and the older way copies", async () => {
    const page = await pageAs("expert", DESKTOP);
    await gotoHydrated(page, "/expert/share");
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException("refused", "NotAllowedError"));
    });
    const copy = page.getByRole("button", { name: /^Cop(y|ied) profile link$/ });
    await copy.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => copy.textContent()).toBe("Copied profile link");
    expect(await copy.evaluate((button) => button === document.activeElement)).toBe(true);
    // The name says what is shown, "Copied" (axe's label-content-name-mismatch).
    expect(await seriousA11yViolations(page, { include: "main" })).toEqual([]);
  });

  it("closes the browse Filters menu and the expert's portal menu with Escape, focus on their toggles", async () => {
    const page = await pageAs("expert", PHONE);
    await gotoHydrated(page, "/experts");
    const filters = page.locator(".filters-menu");
    await filters.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => filters.evaluate((menu) => (menu as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect.poll(() => filters.evaluate((menu) => (menu as HTMLDetailsElement).open)).toBe(false);
    expect((await focused(page))?.text).toContain("Filters");

    await gotoHydrated(page, "/expert/dashboard");
    const toggle = page.locator('[aria-controls="portal-nav"]');
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect((await focused(page))?.text).toBe("Portal menu");
  });

  it("moves focus to the first field to fix when a submission is refused", async () => {
    const page = await pageAs("client", PHONE);
    await gotoHydrated(page, `/ask/${await demoExpertId(page)}`);
    await page.getByRole("textbox", { name: "Your Question" }).fill("short");
    await page.getByRole("button", { name: "Submit Question (Test Mode)" }).press("Enter");
    await expect.poll(async () => (await focused(page))?.id).toBe("ask-question-question");

    await gotoHydrated(page, "/dashboard/settings");
    await page.getByLabel("Full Name").fill("");
    await page.getByRole("button", { name: "Save Changes" }).press("Enter");
    await expect.poll(async () => (await focused(page))?.id).toBe("account-profile-name");
  });

  it("checks a field as Tab leaves it only once it was changed, so tabbing past empty ones marks nothing", async () => {
    const page = await pageAs("client", PHONE);
    await gotoHydrated(page, "/dashboard/settings");
    const password = page.locator("form").filter({ has: page.getByLabel("Current Password") });
    await page.getByLabel("Current Password").focus();
    // On through the three empty password fields, to the controls after them.
    await tabTo(page, (text) => text === "Change Password");
    await page.keyboard.press("Tab");
    await framesLater(page);
    expect(await password.locator('[aria-invalid="true"]').count()).toBe(0);
    expect(await password.locator("[id$='-error']").allTextContents()).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/\S/)]),
    );
    // A field typed in is still checked as it is left.
    await page.getByLabel("New Password", { exact: true }).fill("short");
    await page.getByLabel("New Password", { exact: true }).press("Tab");
    await expect
      .poll(() => page.getByLabel("New Password", { exact: true }).getAttribute("aria-invalid"))
      .toBe("true");
    expect(await page.getByLabel("Current Password").getAttribute("aria-invalid")).not.toBe("true");
  });

  it("lets Tab and Space move on from a field still marked invalid, without pulling focus back", async () => {
    const page = await pageAs("client", PHONE);
    await gotoHydrated(page, `/ask/${await demoExpertId(page)}`);
    const question = page.getByRole("textbox", { name: "Your Question" });
    await question.fill("short");
    await question.press("Tab");
    // Leaving the field checks it (the message shows) and focus goes on to the next control.
    await expect
      .poll(() => page.getByText("Your question must be at least 10 characters long").isVisible())
      .toBe(true);
    const next = await focused(page);
    expect(next?.id).not.toBe("ask-question-question");
    expect(next).not.toBeNull();
    await framesLater(page); // where a refused submission would have moved focus
    expect((await focused(page))?.id).toBe(next?.id);
    // A switch toggled by Space keeps the focus too.
    const audio = page.getByRole("switch", { name: /Request Audio Response/ });
    await audio.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => audio.isChecked()).toBe(true);
    await framesLater(page);
    expect(await audio.evaluate((box) => box === document.activeElement)).toBe(true);
  });

  it("keeps focus in place when an action disables its button or takes it off the page", async () => {
    // Saving disables the button while it works: focus comes back to it, not to the top of the page.
    const expert = await pageAs("expert", PHONE);
    await gotoHydrated(expert, "/expert/account");
    const save = expert.getByRole("button", { name: "Save Changes" });
    await save.focus();
    await expert.keyboard.press("Enter");
    await expect.poll(() => expert.getByText("Updated!").isVisible()).toBe(true);
    await expect.poll(() => save.evaluate((button) => button === document.activeElement)).toBe(true);

    // Marking a notification read takes its button away: focus goes to that notification's title.
    const client = await pageAs("client", DESKTOP);
    await gotoHydrated(client, "/notifications");
    const unread = client.locator("li.notification[data-unread='true']").first();
    const titleId = await unread.getByRole("heading").getAttribute("id");
    // Each button names its notification: a list of "Mark as read" buttons could not be told apart.
    const title = (await unread.locator(".notification__title").textContent())!.replace(/^Unread: /, "");
    expect(await unread.getByRole("button", { name: `Mark as read: ${title}`, exact: true }).count()).toBe(1);
    await unread.getByRole("button", { name: "Mark as read" }).focus();
    await client.keyboard.press("Enter");
    await expect.poll(async () => (await focused(client))?.id).toBe(titleId);

    // A visitor's message, sent: the form is emptied and Send has the focus again.
    const visitor = await newPage(PHONE);
    await gotoHydrated(visitor, "/contact");
    const form = visitor.locator("form#contact");
    await form.getByRole("textbox", { name: "Name" }).fill("Kim Keyboard");
    await form.getByRole("textbox", { name: "Email" }).fill("kim@example.com");
    await form.getByRole("textbox", { name: "Subject" }).fill("Sent by keyboard");
    await form.getByRole("textbox", { name: "Message" }).fill("Checking where focus goes once it is sent.");
    const send = form.getByRole("button", { name: "Send Message" });
    await send.focus();
    await visitor.keyboard.press("Enter");
    await expect.poll(() => visitor.getByText("Message Sent").first().isVisible()).toBe(true);
    await expect.poll(() => send.evaluate((button) => button === document.activeElement)).toBe(true);

    // The footer's newsletter box, on a public page: Subscribe keeps the focus while it works and after.
    await gotoHydrated(visitor, "/about");
    const footer = visitor.getByRole("contentinfo");
    await footer.getByLabel("Email address").fill(`kim-${Date.now()}@example.com`);
    const subscribe = footer.getByRole("button", { name: "Subscribe" });
    await subscribe.focus();
    await visitor.keyboard.press("Enter");
    await footer.getByText("Thanks for subscribing!").waitFor();
    expect(await subscribe.evaluate((button) => button === document.activeElement)).toBe(true);

    // The demo sign-in page's Login, which is disabled while it signs in.
    await gotoHydrated(visitor, "/test-login");
    const login = visitor.getByRole("button", { name: "Login", exact: true });
    await login.focus();
    await visitor.keyboard.press("Enter");
    await expect.poll(() => visitor.getByText('"authenticated": true').isVisible()).toBe(true);
    await expect.poll(() => login.evaluate((button) => button === document.activeElement)).toBe(true);
  });
});
