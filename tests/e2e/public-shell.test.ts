import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot } from "./harness";
import { getBrowser } from "./support/browser";
import { gotoHydrated, OFFLINE_MESSAGE, signInAs } from "./support/pages";
import { seriousA11yViolations } from "./support/watch";

const NAV_LABELS = [
  "Home",
  "Browse Experts",
  "Categories",
  "Ask an Expert",
  "How It Works",
  "FAQ",
  "Become an Expert",
];

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** A page with JavaScript switched off, in its own context (closed by the caller). */
async function newNoJsPage(viewport = DESKTOP) {
  const context = await (await getBrowser()).newContext({
    baseURL: baseUrl(),
    javaScriptEnabled: false,
    viewport: { width: viewport.width, height: viewport.height },
  });
  return { context, page: await context.newPage() };
}

describe("the public header", () => {
  it("lists the seven links, the sign-in buttons, and marks the current page", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/");
    const links = mainNav(page).getByRole("link");
    expect(await links.allTextContents()).toEqual(NAV_LABELS);
    const home = mainNav(page).getByRole("link", { name: "Home" });
    const faq = mainNav(page).getByRole("link", { name: "FAQ" });
    expect(await home.getAttribute("aria-current")).toBe("page");
    expect(await faq.getAttribute("aria-current")).toBeNull();

    await faq.click();
    await expect.poll(() => faq.getAttribute("aria-current")).toBe("page");
    expect(await home.getAttribute("aria-current")).toBeNull();
    expect(new URL(page.url()).hash).toBe("#faq");

    // Both go to /auth (SPEC.md); Sign Up opens it on the Register tab.
    for (const [name, href] of [
      ["Login", "/auth"],
      ["Sign Up", "/auth?tab=register"],
    ]) {
      expect(await page.getByRole("banner").getByRole("link", { name }).getAttribute("href")).toBe(href);
    }

    await page.goto("/about");
    expect(await mainNav(page).locator('[aria-current="page"]').count()).toBe(0);
    await screenshot(page, "public-shell-header-desktop");
  });

  it("fades the page being left while a slow next page loads, and marks it busy", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/about");
    await page.route(/\/experts\.data/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    const main = page.locator("main");
    const opacity = () => main.evaluate((element) => Number(getComputedStyle(element).opacity));
    await page.getByRole("link", { name: "Browse Experts" }).first().click();
    await expect.poll(() => main.getAttribute("aria-busy")).toBe("true");
    await expect.poll(opacity).toBeLessThan(0.7);
    await page.waitForURL((url) => url.pathname === "/experts");
    await expect.poll(() => main.getAttribute("aria-busy")).toBeNull();
    expect(await opacity()).toBe(1);

    // Leaving browse for a profile fades it too; a search typed on browse does not.
    await page.route(/\.data/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.getByRole("searchbox").first().fill("finance");
    await expect.poll(() => main.getAttribute("aria-busy")).toBe("true");
    await page.waitForTimeout(700);
    expect(await opacity()).toBe(1);
    await expect.poll(() => main.getAttribute("aria-busy"), { timeout: 10_000 }).toBeNull();
    await page
      .getByRole("link", { name: /View Profile/ })
      .first()
      .click();
    await expect.poll(opacity).toBeLessThan(0.7);
  });

  it("collapses into a toggle menu on a 390 px phone that closes when a link is chosen", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/about");
    const toggle = page.getByRole("button", { name: "Open menu" });
    const howItWorks = mainNav(page).getByRole("link", { name: "How It Works" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await howItWorks.isVisible()).toBe(false);

    await toggle.click();
    const close = page.getByRole("button", { name: "Close menu" });
    expect(await close.getAttribute("aria-expanded")).toBe("true");
    const controlled = await close.getAttribute("aria-controls");
    expect(await page.locator(`[id="${controlled}"]`).getAttribute("aria-label")).toBe("Main");
    await howItWorks.waitFor({ state: "visible" });
    await screenshot(page, "public-shell-menu-open-phone");

    await howItWorks.click();
    await page.waitForURL(/\/#how-it-works$/);
    await howItWorks.waitFor({ state: "hidden" });
    expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");

    // Escape closes it too, and gives focus back to the toggle.
    await page.getByRole("button", { name: "Open menu" }).click();
    await howItWorks.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await howItWorks.waitFor({ state: "hidden" });
  });

  it("fits every width from 320 to 1280 px, signed out and signed in as each role", async () => {
    for (const role of [null, "client", "expert", "admin"] as const) {
      const page = await newPage(DESKTOP);
      if (role) await signInAs(page, role);
      await gotoHydrated(page, "/about");
      const tooWide: string[] = [];
      for (let width = 320; width <= 1280; width += 5) {
        await page.setViewportSize({ width, height: 800 });
        const { scrollWidth, lastRight } = await page.evaluate(() => {
          // The rightmost header control: the menu button below 768 px, the last action above.
          const controls = [...document.querySelectorAll("header.site-header :is(a, button)")].filter(
            (element) => element.checkVisibility(),
          );
          return {
            scrollWidth: document.documentElement.scrollWidth,
            lastRight: Math.max(...controls.map((element) => element.getBoundingClientRect().right)),
          };
        });
        if (scrollWidth > width || lastRight > width) {
          tooWide.push(
            `${width}px: page ${scrollWidth}px, header control ends at ${Math.round(lastRight)}px`,
          );
        }
      }
      expect(tooWide, `${role ?? "signed out"}`).toEqual([]);
      await page.context().close();
    }
  });

  it("follows the reader's text size: at twice the default, no page is wider than the window", async () => {
    for (const role of [null, "expert"] as const) {
      const page = await newPage(DESKTOP);
      if (role) await signInAs(page, role);
      // The browser's own text-size setting (what a reader changes), not a zoom: rem and em double.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
      const tooWide: string[] = [];
      for (const path of [
        "/",
        "/experts",
        "/about",
        ...(role ? ["/expert/dashboard", "/expert/questions"] : []),
      ]) {
        await gotoHydrated(page, path);
        // Down to 640 px: at twice the text, that is the 320 px every page fits (WCAG's reflow).
        for (const width of [1280, 1024, 768, 640]) {
          await page.setViewportSize({ width, height: 800 });
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) tooWide.push(`${path} at ${width}px: page ${scrollWidth}px`);
        }
      }
      expect(tooWide, `${role ?? "signed out"}`).toEqual([]);
      await page.context().close();
    }
  });

  it("keeps every link reachable on a phone without JavaScript", async () => {
    const { context, page } = await newNoJsPage(PHONE);
    try {
      await page.goto("/about");
      expect(await page.getByRole("button", { name: "Open menu" }).isVisible()).toBe(false);
      for (const name of NAV_LABELS) {
        expect(await mainNav(page).getByRole("link", { name, exact: true }).isVisible()).toBe(true);
      }
      // The open links do not stay on screen over the page as it scrolls.
      await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
      expect((await page.getByRole("banner").first().boundingBox())?.y ?? 0).toBeLessThan(0);
    } finally {
      await context.close();
    }
  });
});

describe("signing up without JavaScript", () => {
  it("reaches the register form from Sign Up and creates the account", async () => {
    const { context, page } = await newNoJsPage(PHONE);
    try {
      await page.goto("/about");
      // Login's screen: its Register tab needs a script, so the page offers the register page instead.
      await page.getByRole("link", { name: "Login" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.waitForURL("**/register");
      expect(await page.locator("form#register").count()).toBe(1);
      // Sign Up's screen opens on the register form itself.
      await page.goto("/about");
      await page.getByRole("link", { name: "Sign Up" }).click();
      await page.waitForURL((url) => url.pathname === "/auth" && url.search === "?tab=register");
      const register = page.locator("form#register");
      const username = `nojs-${Date.now().toString(36)}`;
      await register.getByLabel("Name", { exact: true }).fill("No Script");
      await register.getByLabel("Username").fill(username);
      await register.getByLabel("Email").fill(`${username}@example.com`);
      await register.getByLabel("Password").fill("nojs-pass-1");
      await register.getByRole("button", { name: "Create Account" }).click();
      await page.waitForURL("**/dashboard");
      expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("screens that need JavaScript, without it", () => {
  it("say so, instead of showing controls that do nothing or a load that never ends", async () => {
    const { context, page } = await newNoJsPage(PHONE);
    try {
      const signIn = async (role: "client" | "expert" | "admin") => {
        const { username, password } = DEMO_ACCOUNTS[role];
        await context.clearCookies();
        const response = await context.request.post("/auth", {
          form: { intent: "login", username, password },
          headers: { Origin: baseUrl() },
          maxRedirects: 0,
        });
        expect(response.status(), role).toBe(302);
      };
      await signIn("client");
      await page.goto("/book/1");
      await page.getByText("Booking needs JavaScript").waitFor();
      expect(await page.getByText("Loading expert details...").isVisible()).toBe(false);
      await signIn("expert");
      await page.goto("/expert/questions");
      await page.getByText("The expert portal needs JavaScript").waitFor();
      await signIn("admin");
      await page.goto("/admin/experts");
      await page.getByText("The admin area needs JavaScript").waitFor();
    } finally {
      await context.close();
    }
    // With scripts, none of it shows.
    const scripted = await newPage(PHONE);
    await signInAs(scripted, "expert");
    await gotoHydrated(scripted, "/expert/questions");
    expect(await scripted.getByText("The expert portal needs JavaScript").isVisible()).toBe(false);
  });
});

describe("the not-found screen", () => {
  it("answers unknown paths with 404 and SPEC.md's texts", async () => {
    const page = await newPage(DESKTOP);
    const response = await gotoHydrated(page, "/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404 Page Not Found");
    await page.getByText("Did you forget to add the page to the router?").waitFor();
    expect(await page.title()).toContain("404 Page Not Found");
    await screenshot(page, "public-shell-404");
    await page.getByRole("main").getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });
});

describe("the static pages", () => {
  const PAGES = [
    { path: "/about", status: 200, heading: "About Expert Answers", text: "Innovation" },
    { path: "/privacy-policy", status: 200, heading: "Privacy Policy", text: "Last updated April 22, 2025" },
    { path: "/terms-of-service", status: 200, heading: "Terms of Service", text: "at least 16 years old" },
    { path: "/contact", status: 200, heading: "Contact Us", text: "24-48 hours on business days" },
    { path: "/cancel", status: 200, heading: "Payment Canceled", text: "Your payment was not completed" },
    {
      path: "/forbidden",
      status: 403,
      heading: "Access Denied",
      text: "You don't have permission to access this page",
    },
    { path: "/thank-you", status: 200, heading: "Question Submitted!", text: "within 24 hours" },
    {
      path: "/thank-you?subscription=true",
      status: 200,
      heading: "Subscription Activated!",
      text: "one new question per day",
    },
    { path: "/confirmation", status: 200, heading: "Question Submitted!", text: "within 24 hours" },
    { path: "/success", status: 200, heading: "Question Submitted!", text: "within 24 hours" },
  ];

  it("each renders its heading and copy with the right status, in the shell", async () => {
    const page = await newPage(DESKTOP);
    const titles = new Map<string, string>();
    for (const { path, status, heading, text } of PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      expect(await page.getByRole("heading", { level: 1 }).textContent(), path).toBe(heading);
      await page.getByText(text).first().waitFor();
      expect(await page.getByRole("contentinfo").isVisible(), path).toBe(true);
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      expect(description?.length, path).toBeGreaterThan(20);
      titles.set(heading, await page.title());
    }
    // One title per distinct screen (the three confirmation URLs are one screen).
    expect(new Set(titles.values()).size).toBe(titles.size);
    await page.goto("/");
    await screenshot(page, "public-shell-home-desktop");
  });
});

describe("the contact form", () => {
  it("validates, sends the message, shows the toast and clears the form", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/contact");
    const name = page.getByLabel("Name", { exact: true });
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Name is required").waitFor();
    expect(await name.getAttribute("aria-invalid")).toBe("true");

    await name.fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill("grace@example.com");
    await page.getByLabel("Subject", { exact: true }).fill("A question about sessions");
    await page.getByLabel("Message", { exact: true }).fill("Can I book two sessions back to back?");
    await page.getByRole("button", { name: "Send Message" }).click();

    const toast = page.locator("li.toast");
    await toast.getByText("Message Sent").waitFor();
    await toast.getByText("Thank you for reaching out. We'll respond to your inquiry soon.").waitFor();
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe("");
    await screenshot(page, "public-shell-contact-sent");
  });

  it("keeps the message and says so when the connection is gone, then sends it once it is back", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/contact");
    const message = "Written on a train: please keep this when the tunnel cuts me off.";
    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill("grace@example.com");
    await page.getByLabel("Subject", { exact: true }).fill("Offline");
    await page.getByLabel("Message", { exact: true }).fill(message);
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Send Message" }).click();

    const toast = page.locator("li.toast");
    await toast.getByText(OFFLINE_MESSAGE).waitFor();
    expect(await page.getByRole("heading", { name: "Contact Us" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe(message);
    await screenshot(page, "public-shell-contact-offline");

    // Online, but the connection drops while the message is on its way.
    await page.context().setOffline(false);
    await toast.getByRole("button", { name: "Dismiss notification" }).click();
    await expect.poll(() => toast.getByText(OFFLINE_MESSAGE).isVisible()).toBe(false);
    await page.route("**/contact.data*", (route) => route.abort("connectionfailed"));
    await page.getByRole("button", { name: "Send Message" }).click();
    await toast.getByText(OFFLINE_MESSAGE).waitFor();
    expect(await page.getByRole("heading", { name: "Contact Us" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe(message);

    await page.unroute("**/contact.data*");
    await page.getByRole("button", { name: "Send Message" }).click();
    await toast.getByText("Message Sent").waitFor();
    await expect.poll(() => page.getByLabel("Message", { exact: true }).inputValue()).toBe("");
  });

  it("works without JavaScript", async () => {
    const { context, page } = await newNoJsPage();
    try {
      await page.goto("/contact");
      await page.getByLabel("Name", { exact: true }).fill("No Script");
      await page.getByLabel("Email", { exact: true }).fill("noscript@example.com");
      await page.getByLabel("Subject", { exact: true }).fill("Plain HTML");
      await page.getByLabel("Message", { exact: true }).fill("Sent from a browser without JavaScript.");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByRole("status").getByText("Message Sent").waitFor();
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    } finally {
      await context.close();
    }
  });
});

describe("required fields", () => {
  /** Each field's label, whether its control is required, and whether the label shows the star. */
  const fieldsOf = (page: Page, form: string) =>
    page.locator(`${form} .field`).evaluateAll((fields) =>
      fields.map((field) => {
        const label = field.querySelector(".label");
        const control = field.querySelector<HTMLInputElement>("input, textarea, select");
        const star = label ? getComputedStyle(label, "::after").content.includes("*") : false;
        return { label: label?.textContent, required: control?.required ?? false, star };
      }),
    );

  it("are marked with a star and announced as required; optional ones are not", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/contact");
    expect(await fieldsOf(page, "form#contact")).toEqual(
      ["Name", "Email", "Subject", "Message"].map((label) => ({ label, required: true, star: true })),
    );
    // The star is for the eye: the field's accessible name is its label alone.
    expect(await page.getByRole("textbox", { name: "Subject", exact: true }).count()).toBe(1);

    await gotoHydrated(page, "/register");
    expect(await fieldsOf(page, "form#register")).toEqual(
      ["Name", "Username", "Email", "Password"].map((label) => ({ label, required: true, star: true })),
    );

    await gotoHydrated(page, "/become-expert");
    const application = await fieldsOf(page, "form#expert-application");
    const inApplication = (label: string) => application.find((field) => field.label === label);
    for (const label of ["First Name", "Username", "Password", "Professional Title", "Question Rate (USD)"]) {
      expect(inApplication(label), label).toEqual({ label, required: true, star: true });
    }
    expect(inApplication("Custom URL")).toEqual({ label: "Custom URL", required: false, star: false });

    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/settings");
    const settings = await fieldsOf(page, "form#expert-general");
    const marked = (label: string) => settings.find((field) => field.label === label);
    for (const label of ["Professional Title", "Primary Category", "Bio"]) {
      expect(marked(label), label).toEqual({ label, required: true, star: true });
    }
    for (const label of ["Occupation", "Company", "Qualifications", "Website"]) {
      expect(marked(label), label).toEqual({ label, required: false, star: false });
    }
  });
});

describe("the newsletter box", () => {
  it("answers inline: invalid address, then subscribed (twice alike), then unsubscribes", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/about");
    const footer = page.getByRole("contentinfo");
    const email = footer.getByLabel("Email address");
    const subscribe = footer.getByRole("button", { name: "Subscribe" });

    await email.fill("not-an-email");
    await subscribe.click();
    await footer.getByText("Please enter a valid email address").waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");

    const address = `e2e-${Date.now()}@example.com`;
    await email.fill(address);
    await subscribe.click();
    await footer.getByText("Thanks for subscribing!").waitFor();
    // In the footer's lighter tones, on its dark ground.
    expect(await seriousA11yViolations(page, { include: "footer" })).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/about");
    expect(await email.inputValue()).toBe("");

    // The same answer again: whether an address is on the list is not told.
    await email.fill(address.toUpperCase());
    await subscribe.click();
    await expect.poll(() => email.inputValue()).toBe("");
    await footer.getByText("Thanks for subscribing!").waitFor();

    // The footer's Unsubscribe link leads to the form that takes the address off.
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/newsletter"),
      footer.getByRole("link", { name: "Unsubscribe" }).click(),
    ]);
    const leave = page.locator("#unsubscribe");
    await leave.getByLabel("Email address to remove").fill(address);
    await leave.getByRole("button", { name: "Unsubscribe" }).click();
    await leave.getByText("That address will get no more newsletters from us.").waitFor();
    // In the page's own colours, not the dark footer's (1.5:1 on the white card).
    expect(await seriousA11yViolations(page, { include: "#unsubscribe" })).toEqual([]);
  });

  it("without JavaScript, returns to the page with a flash message", async () => {
    const { context, page } = await newNoJsPage();
    try {
      await page.goto("/privacy-policy");
      const footer = page.getByRole("contentinfo");
      await footer.getByLabel("Email address").fill(`nojs-${Date.now()}@example.com`);
      await footer.getByRole("button", { name: "Subscribe" }).click();
      await page.waitForURL((url) => url.pathname === "/privacy-policy");
      await page.getByRole("status").getByText("Subscribed", { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("shows placeholder social links that go nowhere", async () => {
    const page = await newPage(DESKTOP);
    await page.goto("/");
    const social = page.getByRole("list", { name: "Social media (coming soon)" });
    expect(await social.getByRole("listitem").count()).toBeGreaterThan(0);
    expect(await social.getByRole("link").count()).toBe(0);
    expect(await page.locator('a[href="#"]').count()).toBe(0);
  });
});
