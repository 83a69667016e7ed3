/**
 * Paid questions in the browser (test mode: `wrangler dev` has no Stripe key): the demo client asks
 * the demo expert, the expert answers by text and by an uploaded audio file, and the client reads the
 * answer and gets the audio player.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot, stateDir } from "./harness";
import { executeSql } from "./support/d1";
import {
  demoExpertId,
  dropRequestsOnCue,
  gotoHydrated,
  holdRequests,
  logOut,
  pressTwiceAtOnce,
  reloadHydrated,
  signInAs,
  watchPosts,
} from "./support/pages";

let run = 0;
const uniqueQuestion = (topic: string) =>
  `E2E ${Date.now().toString(36)}-${++run}: how should I think about ${topic} for a small studio?`;

/** Asks as the signed-in client through the Ask screen and returns the question's id. */
async function askAsClient(page: Page, expertId: number, question: string, { audio = false } = {}) {
  await gotoHydrated(page, `/ask/${expertId}`);
  await page.getByRole("textbox", { name: "Your Question" }).fill(question);
  if (audio) await page.getByRole("switch", { name: "Request Audio Response" }).check();
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/thank-you"),
    page.getByRole("button", { name: "Submit Question (Test Mode)" }).click(),
  ]);
  await expect.poll(() => page.getByText("Success! (Test Mode)").first().isVisible()).toBe(true);
  return Number(new URL(page.url()).searchParams.get("question"));
}

/** A new question from the demo client to the demo expert, and the demo admin signed in on a phone. */
async function askedWithAdminOnPhone(topic: string) {
  const client = await newPage(DESKTOP);
  await signInAs(client, "client");
  const questionId = await askAsClient(client, await demoExpertId(client), uniqueQuestion(topic));
  const admin = await newPage(PHONE);
  await signInAs(admin, "admin");
  return { questionId, admin };
}

/** Opens the desk's dialog for one question, as the signed-in expert. */
async function openAnswerDialog(page: Page, question: string) {
  await gotoHydrated(page, "/expert/questions");
  const row = page.locator("tr", { hasText: question });
  await row.getByRole("button", { name: "Answer" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  return dialog;
}

/**
 * The length an `<audio>` element reads from its file's metadata, in seconds. A WebM straight from
 * MediaRecorder carries none: the player reads Infinity, shows no length and cannot seek.
 */
async function audioDuration(audio: Locator): Promise<number> {
  return audio.evaluate(
    (element: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        element.addEventListener("loadedmetadata", () => resolve(element.duration), { once: true });
        element.addEventListener("error", () => reject(new Error("the audio did not load")), { once: true });
        element.preload = "metadata";
        element.load();
      }),
  );
}

/** A short, valid WAV file (RIFF/WAVE header and a little silence). */
function wavFile(): Buffer {
  const samples = 8000;
  const buffer = Buffer.alloc(44 + samples);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(8000, 28);
  buffer.writeUInt16LE(1, 32);
  buffer.writeUInt16LE(8, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples, 40);
  buffer.fill(128, 44);
  return buffer;
}

describe("paid questions in the browser (test mode)", () => {
  it("shows the Ask screen with the expert, the price and SPEC.md's test-mode texts", async () => {
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(viewport);
      await signInAs(page, "client");
      const expertId = await demoExpertId(page);
      await gotoHydrated(page, `/ask/${expertId}`);
      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent())
        .toBe("Ask Sarah Mitchell a Question");
      expect(await page.getByText("Test Mode: Submit questions without payment").isVisible()).toBe(true);
      expect(await page.getByText("Test Mode Active").first().isVisible()).toBe(true);
      expect(await page.getByText("One-time question").isVisible()).toBe(true);
      expect(await page.getByText("$15.00").first().isVisible()).toBe(true);

      // The rule is checked as the client types, with SPEC.md's message.
      await page.getByRole("textbox", { name: "Your Question" }).fill("Too short");
      await page.getByRole("textbox", { name: "Your Question" }).blur();
      await expect
        .poll(() => page.getByText("Your question must be at least 10 characters long").isVisible())
        .toBe(true);
      await screenshot(page, `questions-ask-${name}`);
    }
  });

  it("dates the client's questions on the client's own clock once the page is live", async () => {
    // A zone where it is already another day than in UTC (one of the two always is).
    const day = (timeZone: string) =>
      new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }).format(Date.now());
    const timeZone = ["Pacific/Kiritimati", "Pacific/Pago_Pago"].find((zone) => day(zone) !== day("UTC"));
    if (!timeZone) throw new Error("UTC+14 or UTC-11 is always on another day than UTC");
    const client = await newPage(DESKTOP, { timezoneId: timeZone });
    await signInAs(client, "client");
    const question = uniqueQuestion("dating invoices across time zones");
    const questionId = await askAsClient(client, await demoExpertId(client), question);
    const localDay = day(timeZone);

    await gotoHydrated(client, "/dashboard/questions");
    const item = client.getByRole("article", { name: question });
    await expect.poll(() => item.getByText(/Asked /).textContent()).toMatch(new RegExp(`Asked ${localDay}$`));

    await gotoHydrated(client, `/questions/${questionId}`);
    const asked = await client.getByText(/^Asked /).textContent();
    expect(asked).not.toContain("UTC");
    expect(asked).toContain(localDay.replace(/, \d{4}$/, ""));
  });

  it("refuses a question whose price changed while the page was open, and shows the new price", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    await gotoHydrated(client, `/ask/${expertId}`);
    const question = uniqueQuestion("a price that moved");
    await client.getByRole("textbox", { name: "Your Question" }).fill(question);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    const before = (await (await expert.request.get(`/api/experts/${expertId}`)).json()) as {
      questionRate: number;
      sessionPrice: number;
    };
    const reprice = (questionRate: number) =>
      expert.request.patch(`/api/experts/${expertId}`, {
        data: { questionRate, sessionPrice: before.sessionPrice },
      });
    expect((await reprice(before.questionRate + 500)).ok()).toBe(true);
    try {
      const newPrice = `$${((before.questionRate + 500) / 100).toFixed(2)}`;
      await client.getByRole("button", { name: "Submit Question (Test Mode)" }).click();
      await expect
        .poll(() => client.getByText(`The price of this question has changed to ${newPrice}.`).isVisible())
        .toBe(true);
      await expect.poll(() => client.locator(".payment-box__line strong").textContent()).toBe(newPrice);
      expect(new URL(client.url()).pathname).toBe(`/ask/${expertId}`);
      // Nothing was asked; the question is still there to send at the price now shown.
      expect(await client.getByRole("textbox", { name: "Your Question" }).inputValue()).toBe(question);
    } finally {
      expect((await reprice(before.questionRate)).ok()).toBe(true);
    }
  });

  it("sends a signed-out visitor to sign in, and back to the question afterwards", async () => {
    const page = await newPage(DESKTOP);
    await page.goto("/ask");
    expect(new URL(page.url()).pathname).toBe("/auth");
    await expect
      .poll(() => page.getByText("Please log in to submit a question.").first().isVisible())
      .toBe(true);
    await signInAs(page, "client", { redirectTo: "/ask" });
    expect(new URL(page.url()).pathname).toBe("/ask");
  });

  it("asks as the demo client, answers by text as the demo expert, and shows the client the answer", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    const question = uniqueQuestion("pricing a first retainer");
    const questionId = await askAsClient(client, expertId, question);
    await client.getByRole("link", { name: "View your question" }).click();
    await client.waitForURL(`**/questions/${questionId}`);
    await expect.poll(() => client.getByText("Awaiting expert answer").isVisible()).toBe(true);
    // The client's list, open in another tab while they wait.
    const list = await client.context().newPage();
    await gotoHydrated(list, "/dashboard/questions");
    const listed = list.getByRole("article", { name: question });
    await expect.poll(() => listed.isVisible()).toBe(true);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    // The row's button says which question it answers.
    await gotoHydrated(expert, "/expert/questions");
    expect(
      await expert.getByRole("button", { name: `Answer question #${questionId}`, exact: true }).count(),
    ).toBe(1);
    const dialog = await openAnswerDialog(expert, question);
    expect(await dialog.getByRole("heading", { name: `Answer Question #${questionId}` }).isVisible()).toBe(
      true,
    );
    // The deadline on the expert's clock, its zone named.
    expect(
      await dialog.getByText(/; answer by \w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \S+$/).isVisible(),
    ).toBe(true);
    // Too short first: SPEC.md's message, nothing sent.
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill("Too short");
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => dialog.getByText("Your answer must be at least 10 characters long").isVisible())
      .toBe(true);
    // Focus goes where the fix is, not left on the button.
    await expect
      .poll(() =>
        dialog
          .getByRole("textbox", { name: "Your Answer" })
          .evaluate((field) => field === document.activeElement),
      )
      .toBe(true);
    await screenshot(expert, "questions-desk-answer-dialog-desktop");
    // Sending no recording names the problem on the button that stays focused.
    await dialog.getByRole("tab", { name: "Audio Response" }).click();
    const sendAudio = dialog.getByRole("button", { name: "Send Audio Response" });
    await sendAudio.click();
    await expect
      .poll(() =>
        sendAudio.evaluate(
          (button) => document.getElementById(button.getAttribute("aria-describedby") ?? "")?.textContent,
        ),
      )
      .toBe("Please provide either a text answer or an audio response.");
    await dialog.getByRole("tab", { name: "Text Response" }).click();

    const answer =
      "Price the outcome, not the hours: a three-month retainer with a fixed monthly fee works well.";
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill(answer);
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);
    await expect.poll(() => expert.getByRole("dialog").count()).toBe(0);
    // Its row (the dialog's opener) gone from Pending, focus goes to the desk's heading, not the page's top.
    await expect.poll(() => expert.evaluate(() => document.activeElement?.id)).toBe("questions-heading");

    // The answered question moves to the Answered tab, where View shows the answer and the fee.
    await expert.getByRole("tab", { name: /^Answered/ }).click();
    const row = expert.getByRole("tabpanel").locator("tr", { hasText: question });
    await row.getByRole("button", { name: "View" }).click();
    const view = expert.getByRole("dialog");
    await expect.poll(() => view.getByText(answer).isVisible()).toBe(true);
    expect(await view.getByText("$15.00").isVisible()).toBe(true);
    await screenshot(expert, "questions-desk-view-desktop");

    // The client comes back to their tabs: the answer is there without a reload.
    const comeBack = () => document.dispatchEvent(new Event("visibilitychange"));
    await client.evaluate(comeBack);
    await expect.poll(() => client.getByText(answer).isVisible()).toBe(true);
    expect(await client.getByText("Answered").first().isVisible()).toBe(true);
    await list.evaluate(comeBack);
    await expect.poll(() => listed.getByText("Rate this answer").isVisible()).toBe(true);
    await screenshot(client, "questions-answered-text-desktop");
  });

  it("answers by an uploaded audio file, and the client gets the audio player", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    const question = uniqueQuestion("recording a voice answer");
    const questionId = await askAsClient(client, expertId, question, { audio: true });

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/expert/questions");
    await screenshot(expert, "questions-desk-phone");
    const dialog = await openAnswerDialog(expert, question);
    await dialog.getByRole("tab", { name: "Audio Response" }).click();
    // Anything that is not audio is refused before upload, with SPEC.md's text.
    const upload = dialog.getByLabel("Or upload an audio file");
    await upload.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await expect.poll(() => dialog.getByText("Please select an audio file.").isVisible()).toBe(true);
    await upload.setInputFiles({ name: "answer.wav", mimeType: "audio/wav", buffer: wavFile() });
    await expect.poll(() => dialog.getByRole("button", { name: "Play" }).isVisible()).toBe(true);
    await screenshot(expert, "questions-desk-audio-phone");
    await dialog.getByRole("button", { name: "Send Audio Response" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);

    await gotoHydrated(client, `/questions/${questionId}`);
    const player = client.locator(`audio[src="/questions/${questionId}/audio"]`);
    await expect.poll(() => player.count()).toBe(1);
    const audio = await client.request.get(`/questions/${questionId}/audio`);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toBe("audio/wav");
    expect(audio.headers()["cache-control"]).toBe("private, no-store");
    await screenshot(client, "questions-answered-audio-phone");

    // Nobody else can fetch it.
    const stranger = await newPage(PHONE);
    await signInAs(stranger, "subscriber");
    expect((await stranger.request.get(`/questions/${questionId}/audio`)).status()).toBe(404);
  });

  it("refreshes the desk every 30 seconds without losing an open dialog", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    const first = uniqueQuestion("hiring a first designer");
    await askAsClient(client, expertId, first);

    const expert = await newPage(DESKTOP);
    await expert.clock.install();
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, first);
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill("A draft typed before the refresh.");

    const second = uniqueQuestion("pricing workshops");
    await askAsClient(client, expertId, second);
    expect(await expert.getByText(second).count()).toBe(0);
    await expert.clock.fastForward(31_000);
    await expect.poll(() => expert.getByText(second).count(), { timeout: 10_000 }).toBe(1);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole("textbox", { name: "Your Answer" }).inputValue()).toBe(
      "A draft typed before the refresh.",
    );
  });

  it("tells an open answer dialog that the question was answered elsewhere, at the next refresh", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("answering from two tabs");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(DESKTOP);
    await expert.clock.install();
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill("A draft typed in the first tab.");

    // The same expert answers it in another tab.
    const otherTab = await newPage(DESKTOP);
    await signInAs(otherTab, "expert");
    const otherDialog = await openAnswerDialog(otherTab, question);
    const answer = "Answered from the second tab: start with the contract, then the invoice.";
    await otherDialog.getByRole("textbox", { name: "Your Answer" }).fill(answer);
    await otherDialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => otherTab.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);

    await expert.clock.fastForward(31_000);
    await expect
      .poll(() => dialog.getByText("This question has already been answered.").isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await dialog.getByText(answer).isVisible()).toBe(true);
    expect(await dialog.getByRole("button", { name: "Submit Answer" }).count()).toBe(0);
    expect(await dialog.getByRole("button", { name: "Decline question" }).count()).toBe(0);
  });

  it("moves focus into the decline confirmation and back to Decline question on Keep it", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("declining by keyboard");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    const focusedName = () =>
      expert.evaluate(() => {
        const element = document.activeElement;
        const labelledBy = element?.getAttribute("aria-labelledby");
        const label = labelledBy ? document.getElementById(labelledBy)?.textContent : element?.textContent;
        return `${element?.getAttribute("role") ?? element?.tagName.toLowerCase()}: ${label?.trim()}`;
      });
    await dialog.getByRole("button", { name: "Decline question" }).focus();
    await expert.keyboard.press("Enter");
    await expect
      .poll(focusedName)
      .toBe("form: Decline this question? The client is told and is not charged.");
    await expert.keyboard.press("Tab");
    expect(await focusedName()).toBe("button: Keep it");
    await expert.keyboard.press("Tab");
    expect(await focusedName()).toBe("button: Yes, decline");

    await expert.keyboard.press("Shift+Tab");
    await expert.keyboard.press("Enter");
    await expect.poll(focusedName).toBe("button: Decline question");
  });

  it("records an audio answer in the browser: timer, stop, play, send", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    const question = uniqueQuestion("speaking to investors");
    const questionId = await askAsClient(client, expertId, question, { audio: true });

    const expert = await newPage(DESKTOP);
    await expert.context().grantPermissions(["microphone"]);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    await dialog.getByRole("tab", { name: "Audio Response" }).click();
    await dialog.getByRole("button", { name: "Start recording" }).click();
    // The timer counts minutes:seconds while recording.
    await expect.poll(() => dialog.getByRole("timer").textContent(), { timeout: 10_000 }).toContain("00:02");
    await screenshot(expert, "questions-recorder-recording-desktop");
    await dialog.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Play" }).isVisible()).toBe(true);
    // Stop left the page: focus is on the recording's Play button, not dropped.
    await expect.poll(() => expert.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Play");
    expect(await dialog.getByRole("button", { name: "Record again" }).isVisible()).toBe(true);
    // The playback knows the recording's length (about the timer's two seconds), so it can seek.
    const previewLength = await audioDuration(dialog.locator("audio"));
    expect(previewLength).toBeGreaterThan(1.5);
    expect(previewLength).toBeLessThan(10);
    await dialog.getByRole("button", { name: "Send Audio Response" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);

    const audio = await client.request.get(`/questions/${questionId}/audio`);
    expect(audio.status()).toBe(200);
    // Chromium records WebM, and that is what is stored, whatever the file was called.
    expect(audio.headers()["content-type"]).toBe("audio/webm");

    // The client's player shows the sent answer's length too.
    await gotoHydrated(client, "/dashboard");
    const answerLength = await audioDuration(
      client.getByLabel(`Recorded answer to question ${questionId}`, { exact: true }),
    );
    expect(Math.abs(answerLength - previewLength)).toBeLessThan(0.5);
  });

  /** The expert on /test-audio's answer panel, on the Audio Response tab, ready to record. */
  async function recorderPage(prepare: (page: Page) => Promise<unknown>) {
    const expert = await newPage(DESKTOP);
    await expert.context().grantPermissions(["microphone"]);
    await prepare(expert);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/test-audio");
    await expert.getByRole("button", { name: "Answer This Question" }).first().click();
    await expert.getByRole("tab", { name: "Audio Response" }).click();
    return expert;
  }

  it("stops a recording at 24 minutes, which always fits the upload limit, and keeps it", async () => {
    const expert = await recorderPage((page) => page.clock.install());
    await expert.getByRole("button", { name: "Start recording" }).click();
    await expert.getByRole("timer").waitFor();
    // The live region was on the page before the recording began, which it says (to screen readers).
    expect(await expert.locator(".audio-recorder [role=status]").textContent()).toBe("Recording started.");
    await expert.getByRole("button", { name: "Stop" }).focus();
    await expert.clock.runFor("23:58");
    expect(await expert.getByRole("timer").textContent()).toContain("23:58");
    await expert.clock.runFor("00:03");
    await expect
      .poll(() => expert.getByRole("status").filter({ hasText: "24-minute limit" }).isVisible())
      .toBe(true);
    await expect.poll(() => expert.getByRole("button", { name: "Play" }).isVisible()).toBe(true);
    expect(await expert.getByRole("timer").count()).toBe(0);
    expect(await expert.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Play");
  });

  it("hands focus from Start to Stop, to Play, to Start again, and says each change", async () => {
    const expert = await recorderPage(async () => {});
    const status = expert.locator(".audio-recorder [role=status]");
    const focusedText = () => expert.evaluate(() => document.activeElement?.textContent?.trim());
    const press = async (name: string) => {
      await expert.getByRole("button", { name }).focus();
      await expert.keyboard.press("Enter");
    };
    await press("Start recording");
    await expect.poll(focusedText).toBe("Stop");
    expect(await status.textContent()).toBe("Recording started.");
    await press("Stop");
    await expect.poll(focusedText).toBe("Play");
    expect(await status.textContent()).toBe("Recording stopped.");
    await press("Record again");
    await expect.poll(focusedText).toBe("Start recording");
    expect(await status.textContent()).toBe("Recording discarded.");

    // The answer panel's Close gives focus back to the question's button.
    const close = expert.getByRole("button", { name: "Close" });
    await close.focus();
    await expert.keyboard.press("Enter");
    await expect.poll(focusedText).toBe("Answer This Question");
  });

  it("puts focus on the list's heading once an answer sent from /test-audio takes its question away", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const expertId = await demoExpertId(client);
    const question = uniqueQuestion("focus after answering");
    await askAsClient(client, expertId, question);
    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/test-audio");
    await expert
      .locator("li", { hasText: question })
      .getByRole("button", { name: "Answer This Question" })
      .click();
    await expert
      .getByLabel("Your Answer")
      .fill("Answered from the test page, by keyboard, to see where focus goes.");
    await expert.getByRole("button", { name: "Submit Answer" }).focus();
    await expert.keyboard.press("Enter");
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);
    await expect.poll(() => expert.evaluate(() => document.activeElement?.id)).toBe("to-answer-heading");
  });

  it("says a recording over 25 MB is too large when it stops, before anything is sent", async () => {
    const expert = await recorderPage((page) =>
      // A browser that does not keep to the bit rate: each piece of data padded to 26 MB.
      page.addInitScript(() => {
        const Recorder = window.MediaRecorder;
        window.MediaRecorder = class extends Recorder {
          set ondataavailable(handler: ((event: BlobEvent) => void) | null) {
            super.ondataavailable = (event) =>
              handler?.({
                data: new Blob([event.data, new Uint8Array(26 * 1024 * 1024)], { type: event.data.type }),
              } as BlobEvent);
          }
        };
      }),
    );
    await expert.getByRole("button", { name: "Start recording" }).click();
    await expert.getByRole("timer").waitFor();
    await expert.getByRole("button", { name: "Stop" }).click();
    await expect
      .poll(() => expert.locator(".audio-recorder").getByRole("alert").textContent())
      .toBe("The file is too large (at most 25 MB).");
    expect(await expert.getByRole("button", { name: "Start recording" }).isVisible()).toBe(true);
  });

  it("shows SPEC.md's alert when the microphone is refused", async () => {
    const expert = await newPage(DESKTOP);
    await expert.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException("denied", "NotAllowedError"));
    });
    await signInAs(expert, "expert");
    await gotoHydrated(expert, "/test-audio");
    await expert.getByRole("button", { name: "Answer This Question" }).first().click();
    await expert.getByRole("tab", { name: "Audio Response" }).click();
    await expert.getByRole("button", { name: "Start recording" }).click();
    await expect
      .poll(() => expert.getByRole("alert").filter({ hasText: "Could not access microphone" }).textContent())
      .toBe("Could not access microphone. Please ensure you have given permission to use your microphone.");
  });

  it("lists every question in the admin area and opens an answer form titled with its number", async () => {
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const page = await newPage(viewport);
      await signInAs(page, "admin");
      await gotoHydrated(page, "/admin?filter=pending");
      const firstOpen = page.locator("tbody tr").first();
      const label = await firstOpen.locator("td").first().textContent();
      await firstOpen.getByRole("link", { name: /Answer question/ }).click();
      await expect
        .poll(() => page.getByRole("heading", { name: `Answer Question ${label}` }).isVisible())
        .toBe(true);
      await screenshot(page, `questions-admin-${name}`);
    }
  });

  it("shows /test-audio's two views", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "expert");
    await gotoHydrated(page, "/test-audio");
    await page.getByRole("button", { name: "Answer This Question" }).first().click();
    await expect.poll(() => page.getByRole("tab", { name: "Audio Response" }).isVisible()).toBe(true);
    await screenshot(page, "questions-test-audio-desktop");
  });
});

describe("a fault in the middle of waiting", () => {
  it("keeps the asker's page through a return to the tab while offline, and refreshes once back online", async () => {
    const client = await newPage(PHONE);
    await signInAs(client, "client");
    const question = uniqueQuestion("waiting offline");
    const questionId = await askAsClient(client, await demoExpertId(client), question);
    await gotoHydrated(client, `/questions/${questionId}`);
    await expect.poll(() => client.getByText("Awaiting expert answer").isVisible()).toBe(true);

    await client.context().setOffline(true);
    await client.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    const answer = "Answered while the client's laptop was offline: it shows once they are back.";
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill(answer);
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);
    expect(await client.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    expect(await client.getByText("Awaiting expert answer").isVisible()).toBe(true);

    await client.context().setOffline(false);
    await expect.poll(() => client.getByText(answer).isVisible()).toBe(true);
  });
});

describe("a fault in the middle of writing", () => {
  it("keeps a typed answer through a failed submission, and forgets it once it is sent", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("keeping drafts safe");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    const answer = "Write it once: a long answer survives a dropped connection and comes back here.";
    let dialog = await openAnswerDialog(expert, question);
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill(answer);
    // The connection drops as it is sent: the desk says so and keeps the dialog as it was.
    await expert.route("**/answer**", (route) => route.abort("internetdisconnected"));
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect.poll(() => expert.getByText("We couldn't reach the server.").first().isVisible()).toBe(true);
    expect(await dialog.getByRole("textbox", { name: "Your Answer" }).inputValue()).toBe(answer);
    expect(await dialog.getByRole("button", { name: "Submit Answer" }).isEnabled()).toBe(true);
    expect(await expert.getByRole("heading", { name: "Something went wrong" }).count()).toBe(0);
    await expert.unroute("**/answer**");

    // The tab keeps the draft when the page is loaded again, too.
    dialog = await openAnswerDialog(expert, question);
    await expect.poll(() => dialog.getByRole("textbox", { name: "Your Answer" }).inputValue()).toBe(answer);
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);
    expect(
      await expert.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("draft:"))),
    ).toEqual([]);
  });

  it("keeps focus in the answer dialog while its answer is on its way, and on Submit Answer after a failure", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("focus while an answer is sent");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    await dialog.getByRole("textbox", { name: "Your Answer" }).fill("Sent by keyboard, and lost on its way.");
    const drop = await dropRequestsOnCue(expert, "**/answer**", { reason: "internetdisconnected" });
    const submit = dialog.getByRole("button", { name: "Submit Answer" });
    await submit.focus();
    await expert.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Submitting..." }).waitFor();
    // The disabled button cannot hold focus: the dialog does, not the page behind it.
    await expect
      .poll(() => expert.evaluate(() => document.activeElement?.getAttribute("role")))
      .toBe("dialog");
    await expect.poll(() => dialog.getByRole("status").textContent()).toBe("Submitting...");
    drop();
    await expect.poll(() => expert.getByText("We couldn't reach the server.").first().isVisible()).toBe(true);
    await expect.poll(() => submit.evaluate((button) => button === document.activeElement)).toBe(true);
    // Back on its button, the dialog says nothing more about the send.
    expect(await dialog.getByRole("status").count()).toBe(0);
    await expert.unroute("**/answer**");

    // Sent again, and focus moved on while it was on its way: once it is over, nothing stays said.
    const dropAgain = await dropRequestsOnCue(expert, "**/answer**", { reason: "internetdisconnected" });
    await expert.keyboard.press("Enter");
    await expect.poll(() => dialog.getByRole("status").textContent()).toBe("Submitting...");
    await expert.keyboard.press("Tab");
    dropAgain();
    await submit.waitFor();
    await expect.poll(() => dialog.getByRole("status").count()).toBe(0);
    await expert.unroute("**/answer**");

    // Sent again, and its button taken away by the other tab: the status goes with it.
    const dropOnceMore = await dropRequestsOnCue(expert, "**/answer**", { reason: "internetdisconnected" });
    await submit.focus();
    await expert.keyboard.press("Enter");
    await expect.poll(() => dialog.getByRole("status").textContent()).toBe("Submitting...");
    await dialog.getByRole("tab", { name: "Audio Response" }).click();
    // (The recorder on that tab has a status of its own.)
    const submitting = dialog.getByRole("status").filter({ hasText: "Submitting..." });
    await expect.poll(() => submitting.count()).toBe(0);
    dropOnceMore();
    await dialog.getByRole("tab", { name: "Text Response" }).click();
    await submit.waitFor();
    expect(await dialog.getByRole("status").count()).toBe(0);
    await expert.unroute("**/answer**");
  });

  it("sends a decline once when its button is pressed twice before the page draws again", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("a decline pressed twice");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(PHONE);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    const declines = watchPosts(expert, "/decline");
    await dialog.getByRole("button", { name: "Decline question" }).click();
    await pressTwiceAtOnce(dialog.getByRole("button", { name: "Yes, decline" }));
    await expect.poll(() => expert.getByText("Question declined").first().isVisible()).toBe(true);
    expect(await declines.settled()).toHaveLength(1);
    expect(await expert.getByText("This question is closed").count()).toBe(0);
  });

  it("keeps the answer dialog open while its answer is on its way, so it can report the outcome", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("an answer still on its way");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    const dialog = await openAnswerDialog(expert, question);
    const answerBox = dialog.getByRole("textbox", { name: "Your Answer" });
    await answerBox.fill("Sent, then Escape and the close button pressed before the answer came back.");

    // While a decline is on its way, the answer waits for its outcome (here, a dropped connection).
    const dropDecline = await dropRequestsOnCue(expert, "**/decline**");
    await dialog.getByRole("button", { name: "Decline question" }).click();
    await dialog.getByRole("button", { name: "Yes, decline" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Declining..." }).count()).toBe(1);
    await expect.poll(() => dialog.getByRole("button", { name: "Submit Answer" }).isDisabled()).toBe(true);
    dropDecline();
    await expect.poll(() => dialog.getByRole("button", { name: "Submit Answer" }).isEnabled()).toBe(true);
    await expert.unroute("**/decline**");
    // A toast from a first try that did not get through: its layer sits above the dialog.
    await expert.route("**/answer**", (route) => route.abort("internetdisconnected"));
    const answerFailed = expert.waitForEvent("requestfailed", (request) => request.url().includes("/answer"));
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await answerFailed;
    await expect.poll(() => dialog.getByRole("button", { name: "Submit Answer" }).isEnabled()).toBe(true);
    expect(await expert.getByText("We couldn't reach the server.").first().isVisible()).toBe(true);
    await expert.unroute("**/answer**");

    const release = await holdRequests(expert, "**/answer**", "POST");
    await dialog.getByRole("button", { name: "Submit Answer" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Submitting..." }).count()).toBe(1);
    // Nor can the decline start meanwhile.
    await expect.poll(() => dialog.getByRole("button", { name: "Yes, decline" }).isDisabled()).toBe(true);
    await answerBox.focus();
    await expert.keyboard.press("Escape");
    await dialog.getByRole("button", { name: "Close" }).click();
    expect(await dialog.isVisible()).toBe(true);
    release();
    await expect
      .poll(() => expert.getByText("Answer submitted successfully.").first().isVisible())
      .toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it("keeps what was typed after Save Draft through a reload, unless a newer draft was saved elsewhere", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("a draft saved, then more typed");
    await askAsClient(client, await demoExpertId(client), question);

    const expert = await newPage(DESKTOP);
    await signInAs(expert, "expert");
    const saveDraft = async (dialog: Locator, text: string) => {
      await dialog.getByRole("textbox", { name: "Your Answer" }).fill(text);
      await dialog.getByLabel("Status").selectOption("pending");
      // Saved once the server answers and the dialog closes.
      await Promise.all([
        dialog.page().waitForResponse((response) => /\/questions\/\d+\/answer/.test(response.url())),
        dialog.getByRole("button", { name: "Save Draft" }).click(),
      ]);
      await dialog.waitFor({ state: "detached" });
    };
    const saved = "The first part, saved as a draft on the server.";
    await saveDraft(await openAnswerDialog(expert, question), saved);

    // More is typed on top of the saved draft, not saved, and the page is loaded again.
    const typed = `${saved} And a second part typed after it, not saved yet.`;
    let dialog = await openAnswerDialog(expert, question);
    const box = () => dialog.getByRole("textbox", { name: "Your Answer" });
    await expect.poll(() => box().inputValue()).toBe(saved);
    await box().fill(typed);
    await reloadHydrated(expert);
    dialog = await openAnswerDialog(expert, question);
    await expect.poll(() => box().inputValue()).toBe(typed);

    // A newer draft saved from another device is not covered by this tab's older one.
    const elsewhere = await newPage(PHONE);
    await signInAs(elsewhere, "expert");
    const newer = "A newer draft, saved from the phone.";
    await saveDraft(await openAnswerDialog(elsewhere, question), newer);
    dialog = await openAnswerDialog(expert, question);
    await expect.poll(() => box().inputValue()).toBe(newer);
  });

  it("never shows one person's draft to the next person signed in on the same tab", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "client");
    const expertId = await demoExpertId(page);
    const question = uniqueQuestion("a draft on a shared computer");
    await gotoHydrated(page, `/ask/${expertId}`);
    await page.getByRole("textbox", { name: "Your Question" }).fill(question);

    // They log out; someone else signs in on the same tab and opens the same expert's Ask screen.
    await logOut(page);
    await signInAs(page, "subscriber");
    await gotoHydrated(page, `/ask/${expertId}`);
    await page.getByRole("textbox", { name: "Your Question" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Your Question" }).inputValue()).toBe("");
    expect(
      await page.evaluate(() =>
        Object.values(sessionStorage).filter((value) => value.includes("shared computer")),
      ),
    ).toEqual([]);
  });

  it("keeps a typed question through a failed submission, and starts empty after one is sent", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "client");
    const expertId = await demoExpertId(page);
    const question = uniqueQuestion("what survives a crash");
    await gotoHydrated(page, `/ask/${expertId}`);
    await page.getByRole("textbox", { name: "Your Question" }).fill(question);
    await page.route(`**/ask/${expertId}**`, (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 500, body: "" }) : route.continue(),
    );
    await page.getByRole("button", { name: "Submit Question (Test Mode)" }).click();
    await expect
      .poll(() => page.getByRole("heading", { name: "Something went wrong" }).isVisible())
      .toBe(true);
    await page.unroute(`**/ask/${expertId}**`);

    await gotoHydrated(page, `/ask/${expertId}`);
    const field = page.getByRole("textbox", { name: "Your Question" });
    await expect.poll(() => field.inputValue()).toBe(question);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/thank-you"),
      page.getByRole("button", { name: "Submit Question (Test Mode)" }).click(),
    ]);
    await page.waitForSelector("html[data-hydrated]");
    await gotoHydrated(page, `/ask/${expertId}`);
    expect(await page.getByRole("textbox", { name: "Your Question" }).inputValue()).toBe("");
  });

  it("answers from the admin area, focus then on the list's heading rather than the page's top", async () => {
    const { questionId, admin } = await askedWithAdminOnPhone("answering from the admin area");
    await gotoHydrated(admin, `/admin?filter=pending&question=${questionId}`);
    await admin
      .getByRole("textbox", { name: "Your Answer" })
      .fill("Answered by an administrator while the expert was away.");
    await admin.getByRole("button", { name: "Submit Answer" }).focus();
    await admin.keyboard.press("Enter");
    await expect.poll(() => admin.getByText("Answer submitted successfully.").first().isVisible()).toBe(true);
    await expect.poll(() => admin.evaluate(() => document.activeElement?.id)).toBe("questions-heading");
  });

  it("leaves a decline still on its way with its own question when the admin opens another", async () => {
    const { questionId: first, admin } = await askedWithAdminOnPhone("a decline left behind");
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const second = await askAsClient(
      client,
      await demoExpertId(client),
      uniqueQuestion("the next one opened"),
    );
    await gotoHydrated(admin, `/admin?filter=pending&question=${first}`);
    const release = await holdRequests(admin, "**/decline**", "POST");
    await admin.getByRole("button", { name: "Decline question" }).click();
    await admin.getByRole("button", { name: "Yes, decline" }).click();
    await admin.getByRole("button", { name: "Declining..." }).waitFor();
    // It ends either way: answered, or dropped by the browser once its form leaves the page.
    const isDecline = (request: { url(): string }) => request.url().includes("/decline");
    const ended = Promise.race([
      admin.waitForEvent("requestfinished", isDecline),
      admin.waitForEvent("requestfailed", isDecline),
    ]);

    await admin.getByRole("link", { name: `Answer question #${second}`, exact: true }).click();
    await admin.getByRole("heading", { name: `Answer Question #${second}` }).waitFor();
    // Not locked by the other question's decline, nor showing it.
    expect(await admin.getByRole("button", { name: "Submit Answer" }).isEnabled()).toBe(true);
    expect(await admin.getByRole("button", { name: "Decline question" }).isEnabled()).toBe(true);
    release();
    await ended;
    await admin.unroute("**/decline**");
    // Nor closed by it.
    await admin.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    expect(new URL(admin.url()).searchParams.get("question")).toBe(String(second));
    expect(await admin.getByRole("heading", { name: `Answer Question #${second}` }).isVisible()).toBe(true);
    // Its form has left the page, but its outcome (from the server) is still said.
    await admin.locator("li.toast").getByText("Question declined").waitFor();
  });

  it("says how a decline went when the admin has opened its question again meanwhile", async () => {
    const { questionId, admin } = await askedWithAdminOnPhone("a decline sent from a panel since reopened");
    await gotoHydrated(admin, `/admin?filter=pending&question=${questionId}`);
    const release = await holdRequests(admin, "**/decline**", "POST");
    await admin.getByRole("button", { name: "Decline question" }).click();
    await admin.getByRole("button", { name: "Yes, decline" }).click();
    await admin.getByRole("button", { name: "Declining..." }).waitFor();
    // Closed and opened again: a new decline form for the same question, which sent nothing.
    await admin.getByRole("link", { name: "Close", exact: true }).click();
    await admin.getByRole("link", { name: `Answer question #${questionId}`, exact: true }).click();
    await admin.getByRole("button", { name: "Decline question" }).click();
    await admin.getByRole("button", { name: "Yes, decline" }).waitFor();
    release();
    await admin.locator("li.toast").getByText("Question declined").waitFor();
    await admin.unroute("**/decline**");
  });

  it("gives focus back to the row's link when the admin closes the question it opened", async () => {
    const { questionId, admin } = await askedWithAdminOnPhone("closing the admin's panel");
    await gotoHydrated(admin, "/admin?filter=pending");
    const rowLink = admin.getByRole("link", { name: `Answer question #${questionId}`, exact: true });
    await rowLink.focus();
    await admin.keyboard.press("Enter");
    await expect.poll(() => admin.evaluate(() => document.activeElement?.id)).toBe("selected-heading");
    await admin.getByRole("link", { name: "Close", exact: true }).focus();
    await admin.keyboard.press("Enter");
    await expect
      .poll(() => admin.evaluate(() => document.activeElement?.id))
      .toBe(`question-link-${questionId}`);
  });

  it("answers from the admin area without JavaScript by a POST, never with the answer in the URL", async () => {
    const client = await newPage(DESKTOP);
    await signInAs(client, "client");
    const question = uniqueQuestion("answering without scripts");
    const questionId = await askAsClient(client, await demoExpertId(client), question);

    const context = await client
      .context()
      .browser()!
      .newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(DEMO_ACCOUNTS.admin.username);
    await page.getByLabel("Password").fill(DEMO_ACCOUNTS.admin.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith("/admin") && !url.pathname.endsWith("/login")),
      page.getByRole("button", { name: "Sign In" }).click(),
    ]);
    await page.goto(`/admin?filter=pending&question=${questionId}`);
    const answer = "Sent from a browser without JavaScript, by a plain form post.";
    await page.getByRole("textbox", { name: "Your Answer" }).fill(answer);
    await Promise.all([
      page.waitForLoadState("load"),
      page.getByRole("button", { name: "Submit Answer" }).click(),
    ]);
    expect(page.url()).not.toContain("Sent");
    expect(new URL(page.url()).pathname).toBe("/admin");

    await gotoHydrated(client, `/questions/${questionId}`);
    await expect.poll(() => client.getByText(answer).isVisible()).toBe(true);
    await context.close();
  });
});

describe("rating an answer on the question's own page", () => {
  it("hands the focus to the thanks once the rating is saved", async () => {
    // Past 60 characters, so the dashboard links the question's page.
    const text = `E2E ${Date.now().toString(36)}: rate this answer on its own page, the one its e-mail opens`;
    const client = `(SELECT id FROM users WHERE username = '${DEMO_ACCOUNTS.client.username}')`;
    const expert = `(SELECT e.id FROM experts e JOIN users u ON u.id = e.user_id WHERE u.username = '${DEMO_ACCOUNTS.expert.username}')`;
    const now = Date.now();
    await executeSql(
      stateDir(),
      `INSERT INTO questions (user_id, expert_id, name, email, question, answer, status, amount, payment_state, paid_at, deadline_at, answered_at, created_at) SELECT ${client}, ${expert}, 'Demo Client', 'client@example.com', '${text}', 'A stamp card.', 'answered', 500, 'test_mode', ${now - 7_200_000}, ${now + 79_200_000}, ${now - 3_600_000}, ${now - 7_200_000};`,
    );
    const page = await newPage(PHONE);
    await signInAs(page, "client");
    await gotoHydrated(page, "/dashboard/questions");
    const link = page.locator("article", { hasText: text }).locator('a[href^="/questions/"]');
    const href = await link.getAttribute("href");
    expect(href).toMatch(/^\/questions\/\d+$/);
    await gotoHydrated(page, href!);
    await page.getByRole("radio", { name: "5 stars" }).check();
    await page.getByRole("button", { name: "Submit rating" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByText("You rated this 5 out of 5 stars.").isVisible()).toBe(true);
    await expect
      .poll(() => page.locator(".review-done").evaluate((thanks) => thanks === document.activeElement))
      .toBe(true);
  });
});
