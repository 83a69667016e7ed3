/**
 * Sessions in the browser (test mode: `wrangler dev` has no Stripe key). The demo client, in Berlin,
 * books the demo expert (New York) from her profile, sees the times in both zones, finds the session
 * on the expert's calendar, downloads its .ics file (with the right UTC times) and cancels it. Also:
 * the optimistic availability switch, the weekly schedule editor, and screenshots at 390 and 1280 px.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { formatLongDate, formatTime12, instantToLocal, localToInstant, zoneName } from "../../app/lib/slots";
import {
  DESKTOP,
  screenshot as fullPageScreenshot,
  newPage,
  PHONE,
  stateDir,
  type Viewport,
} from "./harness";
import { executeSql } from "./support/d1";
import {
  gotoHydrated,
  pressTwiceAtOnce,
  reloadHydrated,
  sendIntoServerError,
  signInAs,
  watchPosts,
} from "./support/pages";
import { seriousA11yViolations } from "./support/watch";

const BERLIN = { timezoneId: "Europe/Berlin" };
let run = 0;
const unique = (what: string) => `${what} ${Date.now().toString(36)}-${++run}`;

/** Opens the demo expert's booking screen the way a client gets there: the profile's Book Session. */
async function openBookingScreen(page: Page): Promise<number> {
  await gotoHydrated(page, "/demo-expert");
  await Promise.all([
    page.waitForURL(/\/book\/\d+$/),
    page
      .getByRole("link", { name: /Book Session/ })
      .first()
      .click(),
  ]);
  await page.waitForSelector("html[data-hydrated]");
  await page.locator(".month-calendar").waitFor();
  return Number(new URL(page.url()).pathname.split("/").pop());
}

/** Chooses the first date with a free hour and returns the time option's label. */
/**
 * Picks the first free slot on a day at least two days ahead, so the client may still cancel it
 * (up to 24 hours before) whatever the time of day the suite runs.
 */
async function chooseFirstFreeSlot(page: Page): Promise<string> {
  const time = page.locator("#book-session-time");
  const earliestDay = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  for (let month = 0; month < 3; month++) {
    const days = page.locator(
      ".month-calendar button.calendar-day:not([aria-disabled]):not(.calendar-day--outside)",
    );
    const count = await days.count();
    for (let index = 0; index < count; index++) {
      if (((await days.nth(index).getAttribute("data-date")) ?? "") < earliestDay) continue;
      await days.nth(index).click();
      if (await time.isEnabled()) {
        const options = time.locator("option:not([value=''])");
        const value = await options.first().getAttribute("value");
        await time.selectOption(value!);
        return (await options.first().textContent()) ?? "";
      }
      expect(await page.getByText("No available time slots for this date.").isVisible()).toBe(true);
    }
    await page.getByRole("button", { name: /^Next month/ }).click();
  }
  throw new Error("no free slot in three months");
}

/** Books the demo expert's first free slot as the signed-in client; returns the booking's id and start. */
async function bookFirstFreeSlot(client: Page, name: string, message: string) {
  await openBookingScreen(client);
  await chooseFirstFreeSlot(client);
  await client.locator("form#book-session").getByLabel("Name").fill(name);
  await client.locator("form#book-session").getByLabel("Message").fill(message);
  await Promise.all([
    client.waitForURL((url) => url.pathname === "/thank-you"),
    client.getByRole("button", { name: "Confirm Booking ($120.00)" }).click(),
  ]);
  await expect.poll(() => client.getByRole("heading", { name: "Session Booked!" }).isVisible()).toBe(true);
  const bookingId = Number(new URL(client.url()).searchParams.get("booking"));
  const mine = (await (await client.request.get("/api/bookings")).json()) as ApiBooking[];
  return { bookingId, startsAt: mine.find((booking) => booking.id === bookingId)!.startsAt };
}

/** A full-page screenshot from the top (the sticky header otherwise lands mid-page). */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  return fullPageScreenshot(page, name);
}

type ApiBooking = { id: number; startsAt: number; status: string; expert: { name: string } };

describe("booking a session in the browser (test mode)", () => {
  it("books as the demo client, shows on the expert's calendar, downloads the .ics and cancels", async () => {
    const client = await newPage(DESKTOP, BERLIN);
    await signInAs(client, "client");
    await openBookingScreen(client);
    await expect
      .poll(() => client.getByRole("heading", { level: 1 }).textContent())
      .toBe("Book a Session with Sarah Mitchell");
    expect(await client.getByText("Test Mode Active").isVisible()).toBe(true);
    expect(await client.getByText(/Your time zone: Europe\/Berlin/).isVisible()).toBe(true);

    // Weekends are off in the default schedule; the past is too.
    const saturday = client.locator(".month-calendar button.calendar-day[aria-label^='Saturday']").first();
    expect(await saturday.getAttribute("aria-disabled")).toBe("true");
    // The time select waits for a date.
    expect(await client.locator("#book-session-time").isDisabled()).toBe(true);
    // The date is starred as required, like the time, though a calendar cannot carry `required`.
    const star = (selector: string) =>
      client.locator(selector).evaluate((label) => getComputedStyle(label, "::after").content);
    expect(await star("#book-date-label")).toBe(await star("label[for='book-session-time']"));
    expect(await star("#book-date-label")).toContain("*");

    // SPEC.md's messages, checked in the browser before anything is sent.
    await client.getByRole("button", { name: "Confirm Booking ($120.00)" }).click();
    await expect.poll(() => client.getByText("Please select a date for your session").isVisible()).toBe(true);
    expect(await client.getByText("Please select a time slot").isVisible()).toBe(true);
    expect(
      await client.getByText("Please provide a brief description of what you'd like to discuss").isVisible(),
    ).toBe(true);
    // Focus lands in the calendar, the first thing to fix, on its Tab stop: a day that can be
    // chosen, which carries the error as its description.
    await expect
      .poll(() =>
        client.evaluate(() => {
          const day = document.activeElement;
          if (!day?.matches(".month-calendar button.calendar-day[tabindex='0']:not([aria-disabled])"))
            return null;
          return document.getElementById(day.getAttribute("aria-describedby") ?? "")?.textContent;
        }),
      )
      .toBe("Please select a date for your session");
    // So does a day reached with the arrow keys, until a date is chosen.
    const errorOfFocusedDay = () =>
      client.evaluate(() => {
        const day = document.activeElement;
        if (!day?.matches(".month-calendar button.calendar-day")) return null;
        return document.getElementById(day.getAttribute("aria-describedby") ?? "")?.textContent ?? "";
      });
    await client.keyboard.press("ArrowDown");
    await expect.poll(errorOfFocusedDay).toBe("Please select a date for your session");

    const name = unique("Jordan");
    const message = unique("E2E: I'd like to review our pre-seed pitch deck and the financial model");
    const form = client.locator("form#book-session");
    // A message typed and then a reload: it is still there.
    await form.getByLabel("Message").fill(message);
    await reloadHydrated(client);
    await expect.poll(() => form.getByLabel("Message").inputValue()).toBe(message);

    const label = await chooseFirstFreeSlot(client);
    // Berlin time first, then the expert's New York time.
    expect(label).toMatch(/^\d{1,2}:00 [AP]M GMT\+1 \(\d{1,2}:00 [AP]M EST\)$/);
    await form.getByLabel("Name").fill(name);
    expect(await form.getByLabel("Email", { exact: true }).inputValue()).toBe("jordan.lee@example.com");
    await screenshot(client, "booking-screen-desktop");
    await Promise.all([
      client.waitForURL((url) => url.pathname === "/thank-you"),
      client.getByRole("button", { name: "Confirm Booking ($120.00)" }).click(),
    ]);
    await expect.poll(() => client.getByText("Success! (Test Mode)").first().isVisible()).toBe(true);
    // The URL changes when the navigation starts its React transition, before the page has rendered.
    await expect.poll(() => client.getByRole("heading", { name: "Session Booked!" }).isVisible()).toBe(true);
    const bookingId = Number(new URL(client.url()).searchParams.get("booking"));
    expect(bookingId).toBeGreaterThan(0);
    // Booked: the saved message is forgotten.
    expect(
      await client.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("draft:book:"))),
    ).toEqual([]);

    // The client's dashboard lists it, with the times in Berlin and New York.
    const mine = (await (await client.request.get("/api/bookings")).json()) as ApiBooking[];
    const booked = mine.find((booking) => booking.id === bookingId)!;
    expect(booked.status).toBe("confirmed");
    await gotoHydrated(client, "/dashboard/bookings");
    const row = client.locator("tr.booking-row", {
      has: client.locator(`a[href="/bookings/${bookingId}/calendar.ics"]`),
    });
    await expect.poll(() => row.textContent()).toContain("Expert's time:");

    // The .ics file carries the session's UTC instants.
    const [download] = await Promise.all([
      client.waitForEvent("download"),
      row.getByRole("link", { name: /Calendar file/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`session-${bookingId}.ics`);
    const ics = await readFile((await download.path())!, "utf8");
    const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(".000", "");
    expect(ics).toContain(`DTSTART:${stamp(booked.startsAt)}`);
    expect(ics).toContain(`DTEND:${stamp(booked.startsAt + 3_600_000)}`);
    const google = await row.getByRole("link", { name: /Google Calendar/ }).getAttribute("href");
    expect(new URL(google!).searchParams.get("dates")).toBe(
      `${stamp(booked.startsAt)}/${stamp(booked.startsAt + 3_600_000)}`,
    );

    // The expert sees it on the calendar, on its day and in Upcoming, with the details.
    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/bookings");
    const upcomingRow = expert.locator("tr", { hasText: name });
    await upcomingRow.first().waitFor();
    await upcomingRow
      .first()
      .getByRole("button", { name: /View details/ })
      .click();
    const dialog = expert.getByRole("dialog");
    await dialog.waitFor();
    // Opened to read: focus starts on its title, not on the destructive Cancel Session.
    await expect
      .poll(() => expert.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe("Session details");
    expect(await dialog.textContent()).toContain(message);
    expect(await dialog.textContent()).toContain("60 minutes");
    expect(await dialog.textContent()).toContain(
      "A video call link is sent to both of you 15 minutes before",
    );
    const [expertDownload] = await Promise.all([
      expert.waitForEvent("download"),
      dialog.getByRole("link", { name: /Calendar file/ }).click(),
    ]);
    expect(await readFile((await expertDownload.path())!, "utf8")).toContain(
      `DTSTART:${stamp(booked.startsAt)}`,
    );
    await screenshot(expert, "expert-bookings-dialog-desktop");
    await expert.keyboard.press("Escape");

    // The client cancels (more than a day ahead): refunded, and the expert's Cancelled tab has it.
    await row.getByRole("button", { name: "Cancel Session" }).click();
    // Test mode took no payment: the dialog promises no refund.
    expect(await client.getByRole("dialog").textContent()).toContain(
      "Booked in test mode, so no payment was taken and there is nothing to refund.",
    );
    // The connection drops as it is sent: the dialog stays, says so, and the session stays booked.
    await client.route("**/cancel**", (route) => route.abort("internetdisconnected"));
    await client.getByRole("dialog").getByRole("button", { name: "Yes, cancel", exact: true }).click();
    await expect.poll(() => client.getByText("We couldn't reach the server.").first().isVisible()).toBe(true);
    expect(await client.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    await client.unroute("**/cancel**");
    await client.getByRole("dialog").getByRole("button", { name: "Yes, cancel", exact: true }).click();
    await expect.poll(() => client.getByText("Session cancelled").first().isVisible()).toBe(true);
    await expect
      .poll(async () => (await client.request.get("/api/bookings")).json() as Promise<ApiBooking[]>)
      .toEqual(expect.arrayContaining([expect.objectContaining({ id: bookingId, status: "cancelled" })]));
    await gotoHydrated(expert, "/expert/bookings");
    await expert.getByRole("tab", { name: /Cancelled/ }).click();
    expect(await expert.getByRole("tabpanel").textContent()).toContain(name);
  });

  it("fetches the times again when the server refuses the chosen one (the expert's hours changed)", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    await openBookingScreen(client);
    await chooseFirstFreeSlot(client);
    await client.locator("form#book-session").getByLabel("Message").fill(unique("Hours changed meanwhile"));
    // What POST /api/bookings answers when the expert's hours no longer cover the listed time.
    const refusal = "That time is outside the expert's hours. Please choose one of the listed times.";
    await client.route("**/api/bookings", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ error: refusal, fieldErrors: { time: [refusal] } }),
      }),
    );
    const refetched = client.waitForRequest(
      (request) => request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data"),
    );
    // From the keyboard: the focus must not fall to the top of the page on the refusal.
    await client.getByRole("button", { name: "Confirm Booking ($120.00)" }).focus();
    await client.keyboard.press("Enter");
    await refetched;
    await expect.poll(() => client.getByText(refusal).first().isVisible()).toBe(true);
    // The stale choice is dropped: the client picks again from the fresh list, where focus now is.
    expect(await client.locator("#book-session-time").inputValue()).toBe("");
    await expect.poll(() => client.evaluate(() => document.activeElement?.id)).toBe("book-session-time");
    await client.unroute("**/api/bookings");
  });

  it("says the server could not be reached when the connection drops, keeping the choice and message", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    await openBookingScreen(client);
    await chooseFirstFreeSlot(client);
    const message = unique("Sent as the connection dropped");
    await client.locator("form#book-session").getByLabel("Message").fill(message);
    const time = await client.locator("#book-session-time").inputValue();
    await client.route("**/api/bookings", (route) => route.abort("internetdisconnected"));
    const confirm = client.getByRole("button", { name: "Confirm Booking ($120.00)" });
    await confirm.focus();
    await client.keyboard.press("Enter");
    await expect
      .poll(() => client.locator("form#book-session").getByText("We couldn't reach the server.").isVisible())
      .toBe(true);
    // The button kept the keyboard's focus while it was busy: it is there to press again.
    expect(await confirm.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await client.getByText("Failed to fetch").count()).toBe(0);
    expect(await client.locator("#book-session-time").inputValue()).toBe(time);
    expect(await client.locator("form#book-session").getByLabel("Message").inputValue()).toBe(message);
    await client.unroute("**/api/bookings");
  });

  it("keeps the chosen time and the message through a reload, and through signing in after the session ended", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    const expertId = await openBookingScreen(client);
    await chooseFirstFreeSlot(client);
    const message = unique("Kept through a sign-in");
    await client.locator("form#book-session").getByLabel("Message").fill(message);
    const time = client.locator("#book-session-time");
    const chosenDay = () =>
      client.locator(".month-calendar button[aria-pressed=true]").getAttribute("data-date");
    const chosen = { day: await chosenDay(), time: await time.inputValue() };
    expect(chosen.time).not.toBe("");

    await reloadHydrated(client);
    await expect.poll(() => time.inputValue()).toBe(chosen.time);
    expect(await chosenDay()).toBe(chosen.day);

    await client.context().clearCookies();
    await Promise.all([
      client.waitForURL((url) => url.pathname === "/auth"),
      client.getByRole("button", { name: "Confirm Booking ($120.00)" }).click(),
    ]);
    await signInAs(client, "client", { redirectTo: `/book/${expertId}` });
    await expect.poll(() => time.inputValue()).toBe(chosen.time);
    expect(await chosenDay()).toBe(chosen.day);
    expect(await client.locator("form#book-session").getByLabel("Message").inputValue()).toBe(message);
  });

  it("says SPEC.md's alert for an unknown expert and sends a signed-out visitor to sign in", async () => {
    const page = await newPage(PHONE);
    await page.goto("/book/999999");
    await page.waitForURL((url) => url.pathname === "/auth");
    await expect
      .poll(() => page.getByText("Please log in to book a session.").first().isVisible())
      .toBe(true);
    await signInAs(page, "client");
    await gotoHydrated(page, "/book/999999");
    expect(
      await page
        .getByRole("alert")
        .filter({ hasText: "This expert could not be found." })
        .first()
        .isVisible(),
    ).toBe(true);
  });
});

describe("paying again after a bank page's failed payment", () => {
  it("chooses the client's own held time again, in their zone, with their message", async () => {
    const client = await newPage(PHONE, BERLIN);
    await signInAs(client, "client");
    const expertId = await openBookingScreen(client);
    await chooseFirstFreeSlot(client);
    const date = await client
      .locator(".month-calendar button[aria-pressed='true']")
      .getAttribute("data-date");
    const time = await client.locator("#book-session-time").inputValue();
    const startsAt = localToInstant(date!, time, "Europe/Berlin")!;

    // The hold a payment on a bank's page left behind (what /book/return sends the client back to).
    const message = unique("E2E: the bank said no, but I still want to go over our churn numbers");
    const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const theirs = (at: number) => instantToLocal(at, "America/New_York");
    const clientId = `(SELECT id FROM users WHERE username = ${quote(DEMO_ACCOUNTS.client.username)})`;
    const now = Date.now();
    const holdId = 800_000_000 + Math.floor(Math.random() * 100_000_000);
    await executeSql(
      stateDir(),
      `INSERT OR IGNORE INTO bookings (id, user_id, expert_id, date, start_time, end_time, starts_at, ends_at, status, amount, name, email, notes, hold_expires_at, created_at)
       VALUES (${holdId}, ${clientId}, ${expertId}, ${quote(theirs(startsAt).date)}, ${quote(theirs(startsAt).time)}, ${quote(theirs(startsAt + 3_600_000).time)}, ${startsAt}, ${startsAt + 3_600_000}, 'awaiting_payment', 12000, 'Jordan Lee', 'jordan.lee@example.com', ${quote(message)}, ${now + 15 * 60_000}, ${now});`,
    );
    try {
      // Without the hold's id the time is taken, as for anyone.
      await gotoHydrated(client, `/book/${expertId}`);
      await client.locator(`.month-calendar button[data-date='${date}']`).click();
      expect(await client.locator(`#book-session-time option[value='${time}']`).count()).toBe(0);

      await gotoHydrated(client, `/book/${expertId}?retry=${holdId}`);
      await expect.poll(() => client.locator("#book-session-time").inputValue()).toBe(time);
      expect(
        await client.locator(`.month-calendar button[data-date='${date}']`).getAttribute("aria-pressed"),
      ).toBe("true");
      expect(await client.locator("form#book-session").getByLabel("Message").inputValue()).toBe(message);
    } finally {
      await executeSql(stateDir(), `UPDATE bookings SET status = 'expired' WHERE id = ${holdId};`);
    }
  }, 150_000); // Past the usual minute: it shells out to wrangler twice, which executeSql may retry.
});

describe("the expert's availability", () => {
  it("flips the switch at once, keeps it, and flips back with an error when the server refuses", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/availability");
    const toggle = page.getByRole("switch");
    expect(await page.getByText("Available for Bookings", { exact: true }).isVisible()).toBe(true);

    await toggle.click();
    expect(await page.getByText("Unavailable for Bookings", { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Availability updated").first().isVisible()).toBe(true);
    await gotoHydrated(page, "/expert/availability");
    expect(await page.getByRole("switch").isChecked()).toBe(false);

    // The server fails: the switch goes back, with SPEC.md's error.
    await page.route("**/api/experts/*", (route) => route.fulfill({ status: 500, body: "{}" }));
    await page.getByRole("switch").click();
    await expect.poll(() => page.getByText("Error updating availability").first().isVisible()).toBe(true);
    expect(await page.getByRole("switch").isChecked()).toBe(false);
    expect(await page.getByText("Unavailable for Bookings", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText("Please try again.").first().isVisible()).toBe(true);
    await page.unroute("**/api/experts/*");

    // Signed out elsewhere: trying again cannot help, and the message says why.
    await page.context().clearCookies();
    await page.getByRole("switch").click();
    await expect
      .poll(() => page.getByText("Your session has ended. Please log in again.").first().isVisible())
      .toBe(true);
    expect(await page.getByRole("switch").isChecked()).toBe(false);
    await signInAs(page, "expert", { redirectTo: "/expert/availability" });

    await page.getByRole("switch").click();
    await expect.poll(() => page.getByRole("switch").isChecked()).toBe(true);
    await expect.poll(() => page.getByText("Availability updated").first().isVisible()).toBe(true);
  });

  it("keeps a client's unsent message through a pause in bookings, without breaking the page", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await openBookingScreen(client);
    const message = unique("A message written before the expert paused bookings");
    await client.getByLabel("Message").fill(message);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/availability");
    const toggle = expert.getByRole("switch");
    await toggle.click();
    await expect.poll(() => expert.getByText("Availability updated").first().isVisible()).toBe(true);
    try {
      // The same tab comes back: the saved message has no form to go into.
      await gotoHydrated(client, `/book/${expertId}`);
      await expect
        .poll(() => client.getByText("is not taking new bookings right now").isVisible())
        .toBe(true);
      expect(await client.getByText("Something went wrong").count()).toBe(0);
    } finally {
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(true);
    }
    await gotoHydrated(client, `/book/${expertId}`);
    await expect.poll(() => client.getByLabel("Message").inputValue()).toBe(message);
  });

  it("puts back a schedule whose save ended on the error screen, not saved", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/availability");
    const mondayFrom = page.getByLabel("Monday from");
    const tuesday = page.getByLabel("Tuesday", { exact: true });
    const originalFrom = await mondayFrom.inputValue();
    const originalTuesday = await tuesday.isChecked();
    const editedFrom = originalFrom === "10:00" ? "11:00" : "10:00";
    await mondayFrom.selectOption(editedFrom);
    await tuesday.setChecked(!originalTuesday);

    // The save meets a server error: the page becomes the error screen.
    await sendIntoServerError(page, "**/expert/availability*", () =>
      page.getByRole("button", { name: "Save Schedule" }).click(),
    );

    // Shown again, the schedule is as it was sent, and says so; it is not saved until saved again.
    await gotoHydrated(page, "/expert/availability");
    await page.locator("li.toast").getByText("Your changes are back").waitFor();
    expect(await page.getByLabel("Monday from").inputValue()).toBe(editedFrom);
    expect(await page.getByLabel("Tuesday", { exact: true }).isChecked()).toBe(!originalTuesday);
    await gotoHydrated(page, "/expert/availability");
    expect(await page.getByLabel("Monday from").inputValue()).toBe(originalFrom);
    expect(await page.getByLabel("Tuesday", { exact: true }).isChecked()).toBe(originalTuesday);
  });

  it("saves a weekly schedule in the chosen time zone", async () => {
    const page = await newPage(DESKTOP, BERLIN);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/expert/availability");
    const zone = page.getByLabel("Time zone");
    // First setup: the browser's zone is suggested.
    await expect.poll(() => zone.inputValue()).toBe("Europe/Berlin");
    // Zones that were renamed are listed by their current names.
    const zoneNames = await zone.locator("option").allTextContents();
    expect(zoneNames).toContain("Asia/Kolkata");
    expect(zoneNames).not.toContain("Asia/Calcutta");
    await zone.selectOption("America/New_York");
    await page.getByLabel("Saturday", { exact: true }).check();
    // An end before the start is refused with the reason, on the field, and nothing is sent.
    await page.getByLabel("Saturday from").selectOption("17:00");
    await page.getByLabel("Saturday until").selectOption("14:00");
    await page.getByRole("button", { name: "Save Schedule" }).click();
    await expect
      .poll(() => page.locator("#day-6-error").getByText("The end must be later than the start.").isVisible())
      .toBe(true);
    expect(await page.getByLabel("Saturday until").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("Schedule saved").count()).toBe(0);
    await page.getByLabel("Saturday from").selectOption("09:00");
    await page.getByLabel("Saturday until").selectOption("13:00");
    expect(
      await page.getByText("Sessions start on the hour from 9:00 AM to 12:00 PM (4 a day).").isVisible(),
    ).toBe(true);
    await page.getByRole("button", { name: "Save Schedule" }).click();
    await expect.poll(() => page.getByText("Schedule saved").first().isVisible()).toBe(true);
    await gotoHydrated(page, "/expert/availability");
    expect(await page.getByLabel("Saturday", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Time zone").inputValue()).toBe("America/New_York");

    // Back to the working week, so the other tests see the default hours.
    await page.getByLabel("Saturday", { exact: true }).uncheck();
    await page.getByRole("button", { name: "Save Schedule" }).click();
    await expect.poll(() => page.getByText("Schedule saved").first().isVisible()).toBe(true);
  });
});

describe("a session after the expert changes time zone", () => {
  /** Saves the demo expert's zone on the Availability screen, keeping the weekly hours. */
  async function moveExpert(expert: Page, timeZone: string) {
    await gotoHydrated(expert, "/expert/availability");
    await expert.getByLabel("Time zone").selectOption(timeZone);
    await expert.getByRole("button", { name: "Save Schedule" }).click();
    await expect.poll(() => expert.getByText("Schedule saved").first().isVisible()).toBe(true);
  }

  it("shows the client the booked instant, in their zone and on the expert's new clock", async () => {
    const LOS_ANGELES = "America/Los_Angeles";
    const client = await newPage(DESKTOP, { timezoneId: LOS_ANGELES });
    await signInAs(client, "client");
    const { bookingId, startsAt } = await bookFirstFreeSlot(
      client,
      unique("Riley"),
      unique("E2E: a session that outlives its expert's move to the west coast"),
    );

    // Booked on New York's clock; the expert then moves to Los Angeles, three hours behind.
    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await moveExpert(expert, LOS_ANGELES);
    const row = (page: Page) =>
      page.locator("tr.booking-row", { has: page.locator(`a[href="/bookings/${bookingId}/calendar.ics"]`) });
    const span = (zone: string) => {
      const start = instantToLocal(startsAt, zone);
      const end = instantToLocal(startsAt + 3_600_000, zone);
      return {
        date: formatLongDate(start.date),
        times: `${formatTime12(start.time)} – ${formatTime12(end.time)}`,
      };
    };
    try {
      // In the expert's new zone: one time, the right one.
      const west = span(LOS_ANGELES);
      await gotoHydrated(client, "/dashboard/bookings");
      const time = row(client).locator("td[data-label='Time']");
      await expect.poll(() => time.textContent()).toBe(`${west.times} ${zoneName(startsAt, LOS_ANGELES)}`);
      expect(await row(client).locator("td[data-label='Date']").textContent()).toBe(west.date);

      // Elsewhere: their own time, and the expert's new wall clock beside it.
      const berlin = await newPage(DESKTOP, BERLIN);
      await signInAs(berlin, "client");
      await gotoHydrated(berlin, "/dashboard/bookings");
      const own = span("Europe/Berlin");
      const text = () => row(berlin).locator("td[data-label='Time']").textContent();
      await expect.poll(text).toContain(`${own.times} ${zoneName(startsAt, "Europe/Berlin")}`);
      expect(await text()).toContain(
        `Expert's time: ${own.date === west.date ? "" : `${west.date}, `}${west.times} ${zoneName(startsAt, LOS_ANGELES)}`,
      );
    } finally {
      await moveExpert(expert, "America/New_York");
      await gotoHydrated(client, "/dashboard/bookings");
      await row(client).getByRole("button", { name: "Cancel Session" }).click();
      await client.getByRole("dialog").getByRole("button", { name: "Yes, cancel", exact: true }).click();
      await expect.poll(() => client.getByText("Session cancelled").first().isVisible()).toBe(true);
    }
  });
});

describe("the expert cancelling a session", () => {
  it("cancels from the session's details by keyboard: focus stays in the details, which Escape closes", async () => {
    const client = await newPage(DESKTOP, BERLIN);
    await signInAs(client, "client");
    const name = unique("Avery");
    await bookFirstFreeSlot(client, name, unique("E2E: a session the expert will have to cancel"));

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/bookings");
    const row = expert.locator("tr", { hasText: name }).first();
    await row.getByRole("button", { name: /View details/ }).click();
    const details = expert.locator(".booking-dialog");
    await details.waitFor();
    await details.getByRole("button", { name: "Cancel Session" }).focus();
    await expert.keyboard.press("Enter");
    const confirm = expert.getByRole("dialog", { name: "Cancel this session?" });
    await confirm.waitFor();
    // Test mode took no payment: the expert is not told the client gets money back.
    expect(await confirm.textContent()).toContain("there is nothing to refund");
    expect(await confirm.textContent()).not.toContain("gets a full refund");
    await confirm.getByRole("button", { name: "Yes, cancel", exact: true }).focus();
    await expert.keyboard.press("Enter");
    await expect.poll(() => expert.getByText("Session cancelled").first().isVisible()).toBe(true);
    await expect.poll(() => details.getByText("Cancelled by you").isVisible()).toBe(true);
    expect(await details.textContent()).not.toContain("refunded");

    // The Cancel Session button is gone: focus is on the details' title, not on their frame nor on
    // the page behind them.
    await expect
      .poll(() =>
        expert.evaluate(() => {
          const active = document.activeElement;
          return active?.closest(".booking-dialog") ? active.className : null;
        }),
      )
      .toBe("dialog-title");
    // Escape closes the dialog the focus is in, though the toast is the newer layer; the toast
    // stays to run out its time.
    await expert.keyboard.press("Escape");
    await expect.poll(() => details.count()).toBe(0);
    expect(await expert.getByText("Session cancelled").first().isVisible()).toBe(true);
    // The row that opened them has left the Upcoming tab: focus goes to the list's heading, not to
    // the top of the page.
    await expect.poll(() => expert.evaluate(() => document.activeElement?.id)).toBe("list-title");
  });

  it("sends a cancellation once when its button is pressed twice before the page draws again", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    const name = unique("Double");
    await bookFirstFreeSlot(client, name, unique("E2E: a session cancelled with a double click"));

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/bookings");
    const cancels = watchPosts(expert, "/cancel");
    await expert
      .locator("tr", { hasText: name })
      .first()
      .getByRole("button", { name: /View details/ })
      .click();
    await expert.locator(".booking-dialog").getByRole("button", { name: "Cancel Session" }).click();
    const confirm = expert.getByRole("dialog", { name: "Cancel this session?" });
    await pressTwiceAtOnce(confirm.getByRole("button", { name: "Yes, cancel", exact: true }));
    await expect.poll(() => expert.getByText("Session cancelled").first().isVisible()).toBe(true);
    expect(await cancels.settled()).toHaveLength(1);
    expect(await expert.getByText("This session has already been cancelled.").count()).toBe(0);
  });
});

describe("booking screens at 390 px and 1280 px", () => {
  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as [string, Viewport][]) {
    it(`lays out the booking screen, the calendar, availability and the dashboard on a ${name}`, async () => {
      const client = await newPage(viewport, BERLIN);
      await signInAs(client, "client");
      await openBookingScreen(client);
      await chooseFirstFreeSlot(client);
      const width = await client.evaluate(() => document.documentElement.scrollWidth);
      // Every month that can be shown, walked by keyboard: readable days (axe), and focus kept on
      // the month button when it turns off at either end.
      const previous = client.getByRole("button", { name: /^Previous month/ });
      const next = client.getByRole("button", { name: /^Next month/ });
      await previous.focus();
      while (await previous.isEnabled()) await client.keyboard.press("Enter");
      expect(await previous.evaluate((button) => button === document.activeElement)).toBe(true);
      await next.focus();
      for (;;) {
        expect(await seriousA11yViolations(client, { include: ".month-calendar" })).toEqual([]);
        if (await next.isDisabled()) break;
        await client.keyboard.press("Enter");
      }
      expect(await next.evaluate((button) => button === document.activeElement)).toBe(true);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await screenshot(client, `booking-screen-${name}`);
      await gotoHydrated(client, "/dashboard/bookings");
      await screenshot(client, `client-bookings-${name}`);

      const expert = await newPage(viewport);
      await signInAs(expert, "expert");
      await gotoHydrated(expert, "/expert/bookings");
      expect(await expert.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await screenshot(expert, `expert-bookings-${name}`);
      await gotoHydrated(expert, "/expert/availability");
      expect(await expert.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await screenshot(expert, `expert-availability-${name}`);
    });
  }
});

describe("rating a completed session", () => {
  it("sits in line with its row, and shows empty stars until stars are chosen", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    await gotoHydrated(client, "/dashboard/bookings");
    const row = client.locator("tbody tr", { has: client.locator(".review-form") }).first();
    const form = row.locator(".review-form");
    const status = row.locator("td[data-label='Status'] > *").first();
    const [formTop, statusTop] = await Promise.all(
      [form.locator("fieldset").first(), status].map(async (box) => (await box.boundingBox())!.y),
    );
    // The form starts where the row's other cells start, with no rule or gap above it.
    expect(Math.abs(formTop - statusTop)).toBeLessThanOrEqual(4);
    const stars = () => form.locator(".review-star span[aria-hidden]").allTextContents();
    expect(await stars()).toEqual(["☆", "☆", "☆", "☆", "☆"]);
    await form.getByRole("radio", { name: "3 stars" }).check();
    await expect.poll(stars).toEqual(["★", "★", "★", "☆", "☆"]);
    await client.context().close();
  });
});
