import { describe, expect, it } from "vitest";
import { insertExpert } from "../factories";
import { db, get, insertAccount, signIn } from "./support/accounts";

const PORTAL_PAGES = [
  "/expert/dashboard",
  "/expert/settings",
  "/expert/earnings",
  "/expert/earnings/analytics",
  "/expert/earnings/export",
  "/expert/share",
];

async function signedInExpert(customUrl: string | null) {
  const { user, expert } = await insertExpert(db(), {
    user: { password: "expert-pass-1" },
    expert: { customUrl },
  });
  return { expert, cookie: await signIn(user.username, "expert-pass-1") };
}

describe("the expert portal's guards", () => {
  it("sends a signed-in client from every portal page to /forbidden", async () => {
    await insertAccount("portal-client", "client-pass-1");
    const cookie = await signIn("portal-client", "client-pass-1");
    for (const path of PORTAL_PAGES) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/forbidden");
    }
  });

  it("sends a signed-out visitor to /expert/login, coming back afterwards", async () => {
    for (const path of PORTAL_PAGES) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(
        `/expert/login?${new URLSearchParams({ redirectTo: path })}`,
      );
    }
  });

  it("opens every page for an expert, and for an admin without a profile (who is told so)", async () => {
    const { cookie } = await signedInExpert(null);
    for (const path of PORTAL_PAGES) expect((await get(path, cookie)).status, path).toBe(200);
    await insertAccount("portal-admin", "admin-pass-1", { role: "admin" });
    const adminCookie = await signIn("portal-admin", "admin-pass-1");
    for (const path of PORTAL_PAGES) expect((await get(path, adminCookie)).status, path).toBe(200);
    expect(await (await get("/expert/share", adminCookie)).text()).toContain("no expert profile to share");
  });
});

describe("the portal's page titles", () => {
  it("names each page, then the site, as every other page does", async () => {
    const { cookie } = await signedInExpert("titled-expert");
    const titles: Record<string, string> = {
      "/expert/dashboard": "Expert Dashboard",
      "/expert/questions": "Questions",
      "/expert/bookings": "Bookings",
      "/expert/availability": "Availability",
      "/expert/settings": "Edit Profile",
      "/expert/earnings": "Earnings",
      "/expert/earnings/analytics": "Earnings Analytics",
      "/expert/share": "Share",
      "/expert/account": "Account",
    };
    for (const [path, title] of Object.entries(titles)) {
      const html = await (await get(path, cookie)).text();
      expect(html, path).toContain(`<title>${title} | Expert Answers</title>`);
    }
  });
});

describe("the portal sidebar", () => {
  it("lists SPEC.md's items in order, with View Profile in a new tab before Account", async () => {
    const { cookie } = await signedInExpert("sidebar-expert");
    const html = await (await get("/expert/dashboard", cookie)).text();
    const nav = html.slice(
      html.indexOf('aria-label="Expert portal"'),
      html.indexOf("</nav>", html.indexOf('aria-label="Expert portal"')),
    );
    const order = [
      'href="/expert/dashboard"',
      'href="/expert/questions"',
      'href="/expert/bookings"',
      'href="/expert/earnings"',
      'href="/expert/earnings/analytics"',
      'href="/expert/availability"',
      'href="/expert/share"',
      'href="/expert/settings"',
      'href="/sidebar-expert"',
      'href="/expert/account"',
    ].map((href) => nav.indexOf(href));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(nav).toMatch(/href="\/sidebar-expert" target="_blank" rel="noreferrer"/);
    expect(nav).toContain('value="/expert/login"');
  });

  it("links View Profile to /expert/{id} when there is no custom URL", async () => {
    const { expert, cookie } = await signedInExpert(null);
    const html = await (await get("/expert/dashboard", cookie)).text();
    expect(html).toContain(`href="/expert/${expert.id}" target="_blank"`);
  });
});

describe("the share page", () => {
  it("shares the public profile link on Twitter, Facebook, LinkedIn and by e-mail", async () => {
    const { cookie } = await signedInExpert("share-me");
    const html = await (await get("/expert/share", cookie)).text();
    const link = encodeURIComponent("https://marketplace.test/share-me");
    expect(html).toContain('value="https://marketplace.test/share-me"');
    expect(html).toContain(`https://twitter.com/intent/tweet?text=`);
    expect(html).toContain(`&amp;url=${link}`);
    expect(html).toContain(`https://www.facebook.com/sharer/sharer.php?u=${link}`);
    expect(html).toContain(`https://www.linkedin.com/sharing/share-offsite/?url=${link}`);
    expect(html).toContain("mailto:?subject=");
    expect(html).toContain("Open in Email Client");
    expect(html).toContain("Copy Email");
    expect(html).toContain("Instagram");
  });
});
