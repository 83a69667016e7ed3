import { describe, expect, it } from "vitest";
import { failureSubject, formatRunTime } from "~/lib/cron-runs";
import { emailBackoffMs } from "~/models/email-outbox.server";
import { REVIEW_MESSAGES, ReviewSchema } from "~/schemas/reviews";
import { escapeHtml, renderEmail } from "~/services/email.server";

describe("e-mail rendering", () => {
  it("escapes every character that could open markup or leave an attribute", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("builds the HTML from escaped text and turns a lone app path into a link to the site", () => {
    const mail = renderEmail(
      {
        to: "a@example.com",
        subject: "Hi <b>there</b>",
        bodyText: "Line <i>one</i>\nline two\n\n/questions/3",
      },
      "https://expertanswers.example",
    );
    expect(mail.html).toContain('<h1 style="font-size:20px">Hi &lt;b&gt;there&lt;/b&gt;</h1>');
    expect(mail.html).toContain("<p>Line &lt;i&gt;one&lt;/i&gt;<br>line two</p>");
    expect(mail.html).toContain('<a href="https://expertanswers.example/questions/3">');
    expect(mail.html).not.toContain("<i>");
    expect(mail.text).toBe("Line <i>one</i>\nline two\n\nhttps://expertanswers.example/questions/3");
  });

  it("never makes a link of a path that leaves the site", () => {
    const mail = renderEmail(
      { to: "a@example.com", subject: "s", bodyText: "//evil.example/x" },
      "https://expertanswers.example",
    );
    expect(mail.html).not.toContain("<a ");
    expect(mail.html).toContain("<p>//evil.example/x</p>");
  });
});

describe("e-mail retries", () => {
  it("waits one cron period, then twice as long each time", () => {
    expect([1, 2, 3, 4, 5].map((attempts) => emailBackoffMs(attempts) / 60_000)).toEqual([5, 10, 20, 40, 80]);
  });
});

describe("the review form's rules", () => {
  const parse = (fields: Record<string, unknown>) =>
    ReviewSchema.safeParse({ subject: "question", questionId: 1, ...fields });

  it("accepts 1 to 5 whole stars and an optional comment up to 1,000 characters", () => {
    expect(parse({ rating: 1 }).success).toBe(true);
    expect(parse({ rating: 5, comment: "x".repeat(1000) }).success).toBe(true);
    expect(parse({ rating: 3, comment: "   " }).data?.comment).toBeNull();
  });

  it("refuses 0, 6, half stars and a comment over 1,000 characters with the form's messages", () => {
    for (const rating of [0, 6, 4.5]) {
      const result = parse({ rating });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe(REVIEW_MESSAGES.rating);
    }
    expect(parse({ rating: 5, comment: "x".repeat(1001) }).error?.issues[0].message).toBe(
      REVIEW_MESSAGES.comment,
    );
  });
});

describe("the runs view", () => {
  it("names the row a failure concerns", () => {
    expect(failureSubject({ task: "expire", id: 12, message: "m" })).toBe("question 12");
    expect(failureSubject({ task: "meeting-links", id: 3, message: "m" })).toBe("booking 3");
    expect(failureSubject({ task: "lapse-subscriptions", message: "m" })).toBe("lapse-subscriptions");
  });

  it("shows times in UTC, the same on the server and in the browser", () => {
    expect(formatRunTime(Date.UTC(2026, 2, 8, 7, 5, 9))).toBe("2026-03-08 07:05:09 UTC");
  });
});
