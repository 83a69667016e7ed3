import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ContactSchema } from "~/schemas/contact";
import { AdminExpertActionSchema, AdminMessageActionSchema } from "~/schemas/expert";
import { NewsletterSchema } from "~/schemas/newsletter";
import { NotificationActionSchema } from "~/schemas/notifications";
import { TestAskSchema } from "~/schemas/questions";
import { ReviewSchema } from "~/schemas/reviews";

const messagesOf = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe("ContactSchema", () => {
  const valid = { name: "Ada", email: "ada@example.com", subject: "Hello", message: "A question." };

  it("accepts a complete message and trims it", () => {
    const result = ContactSchema.safeParse({ ...valid, name: "  Ada  ", email: " ada@example.com " });
    expect(result.success && result.data).toEqual(valid);
  });

  it("keeps the name and subject on one line (the subject goes into a mailto: link), not the message", () => {
    const result = ContactSchema.safeParse({
      ...valid,
      name: "Ada\r\nBcc: x@evil.example",
      subject: "Refund please\r\nCc: attacker@evil.example\r\n\r\nInjected body",
      message: "Line one\nLine two",
    });
    expect(result.success && result.data).toEqual({
      ...valid,
      name: "Ada Bcc: x@evil.example",
      subject: "Refund please Cc: attacker@evil.example Injected body",
      message: "Line one\nLine two",
    });
  });

  it("says which fields are required", () => {
    expect(messagesOf(ContactSchema.safeParse({}))).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Subject is required",
      message: "Message is required",
    });
    expect(
      messagesOf(ContactSchema.safeParse({ name: "   ", email: "", subject: " ", message: "" })),
    ).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Subject is required",
      message: "Message is required",
    });
  });

  it("gives the required messages for empty form fields too (as conform parses them)", () => {
    const submission = parseWithZod(form({ name: "", email: "", subject: "", message: "" }), {
      schema: ContactSchema,
    });
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({
      name: ["Name is required"],
      email: ["Email is required"],
      subject: ["Subject is required"],
      message: ["Message is required"],
    });
  });

  it("refuses an invalid email address", () => {
    for (const email of ["nope", "a@", "@example.com", "a b@example.com", `${"x".repeat(250)}@example.com`]) {
      expect(messagesOf(ContactSchema.safeParse({ ...valid, email })), email).toEqual({
        email: "Please enter a valid email address",
      });
    }
  });

  it("caps each field's length", () => {
    expect(
      messagesOf(
        ContactSchema.safeParse({
          name: "n".repeat(201),
          email: valid.email,
          subject: "s".repeat(201),
          message: "m".repeat(5001),
        }),
      ),
    ).toEqual({
      name: "Name must be at most 200 characters",
      subject: "Subject must be at most 200 characters",
      message: "Message must be at most 5000 characters",
    });
    expect(
      ContactSchema.safeParse({
        ...valid,
        name: "n".repeat(200),
        subject: "s".repeat(200),
        message: "m".repeat(5000),
      }).success,
    ).toBe(true);
  });
});

describe("NewsletterSchema", () => {
  it("accepts an address and trims it", () => {
    expect(NewsletterSchema.parse({ email: "  Reader@Example.com " })).toEqual({
      email: "Reader@Example.com",
    });
  });

  it("refuses anything else with one message", () => {
    for (const email of [undefined, "", "   ", "reader", "reader@", `${"x".repeat(250)}@example.com`]) {
      expect(messagesOf(NewsletterSchema.safeParse({ email })), String(email)).toEqual({
        email: "Please enter a valid email address",
      });
    }
  });
});

describe("record ids in forms (admin actions, ratings, notifications, the test ask form)", () => {
  const parse = (schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) =>
    parseWithZod(form(fields), { schema });

  it("reads an id written as digits", () => {
    expect(parse(AdminExpertActionSchema, { intent: "feature", expertId: "10" })).toMatchObject({
      status: "success",
      value: { intent: "feature", expertId: 10 },
    });
    expect(parse(AdminMessageActionSchema, { intent: "handled", messageId: "7" })).toMatchObject({
      status: "success",
      value: { messageId: 7 },
    });
    expect(parse(ReviewSchema, { subject: "question", questionId: "12", rating: "5" })).toMatchObject({
      status: "success",
      value: { questionId: 12, rating: 5 },
    });
    expect(parse(NotificationActionSchema, { intent: "read", notificationId: "3" })).toMatchObject({
      status: "success",
      value: { notificationId: 3 },
    });
  });

  it("refuses what Number() would also read as an id: exponents, hex, signs, spaces, decimals", () => {
    for (const written of ["1e1", "0x0a", "+10", " 10", "10.0", "-1", "0", "", "abc", "1".repeat(13)]) {
      expect(parse(AdminExpertActionSchema, { intent: "feature", expertId: written }).status, written).toBe(
        "error",
      );
      expect(parse(AdminMessageActionSchema, { intent: "open", messageId: written }).status, written).toBe(
        "error",
      );
      expect(
        parse(ReviewSchema, { subject: "booking", bookingId: written, rating: "4" }).status,
        written,
      ).toBe("error");
      expect(
        parse(NotificationActionSchema, { intent: "read", notificationId: written }).status,
        written,
      ).toBe("error");
      const question = "A question of some length.";
      expect(parse(TestAskSchema, { question, expertId: written }).status, written).toBe("error");
    }
  });
});
