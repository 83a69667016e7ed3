/**
 * Pressing a form's submit button takes focus from the field being edited, and the field's blur
 * validation shows its error above the button: if the button moved before the press ended, the
 * browser clicked nothing and the first press of "Send" did nothing. Every form's useForm
 * (~/components/use-form) keeps the button where it was pressed.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, PHONE, type Viewport } from "./harness";
import { gotoHydrated } from "./support/pages";

const FIELD_ERRORS = "#contact [id$='-error']";
/** What the form shows once it is submitted with the invalid e-mail and nothing else filled in. */
const EVERY_FIELD_ERROR = [
  "Please enter a valid email address",
  "Subject is required",
  "Message is required",
];
/**
 * A desktop window tall enough to show the whole form at the top of the page: once scrolled, the
 * browser's scroll anchoring would hold the button in place for a mouse and hide the fault.
 */
const TALL_DESKTOP: Viewport = { width: 1280, height: 1000 };

/** The contact form with a name, an invalid e-mail being typed (focused) and the rest left empty. */
async function contactFormWithInvalidEmail(page: Page, { scrolled }: { scrolled: boolean }) {
  await gotoHydrated(page, "/contact");
  const form = page.locator("form#contact");
  await form.getByRole("textbox", { name: "Name" }).fill("Ann Lee");
  await form.getByRole("textbox", { name: "Email" }).fill("ann-at-example");
  await form.getByRole("textbox", { name: "Email" }).focus();
  const send = form.getByRole("button", { name: "Send Message" });
  await send.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY > 0), "the page is scrolled to show Send").toBe(scrolled);
  const box = await send.boundingBox();
  expect(box, "the Send button is on screen").not.toBeNull();
  return { send, x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 };
}

async function shownErrors(page: Page) {
  return (await page.locator(FIELD_ERRORS).allTextContents()).filter(Boolean);
}

describe("a submit button pressed right after an invalid field", () => {
  it("submits on the first mouse click: every field's error shows, not only the one that lost focus", async () => {
    const page = await newPage(TALL_DESKTOP);
    const { x, y } = await contactFormWithInvalidEmail(page, { scrolled: false });
    await page.mouse.click(x, y);
    await expect.poll(() => shownErrors(page)).toEqual(EVERY_FIELD_ERROR);
    // The submit's validation puts focus on the first field in error.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-email");
  });

  it("submits on the first tap on a phone", async () => {
    const page = await newPage(PHONE);
    const { x, y } = await contactFormWithInvalidEmail(page, { scrolled: true });
    await page.touchscreen.tap(x, y);
    await expect.poll(() => shownErrors(page)).toEqual(EVERY_FIELD_ERROR);
  });

  it("still checks the field when the press is dragged off the button and nothing is submitted", async () => {
    const page = await newPage(TALL_DESKTOP);
    const { x, y } = await contactFormWithInvalidEmail(page, { scrolled: false });
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y - 400, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => shownErrors(page)).toEqual(["Please enter a valid email address"]);
  });
});
