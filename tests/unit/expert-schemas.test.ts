import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { formatCents } from "~/lib/money";
import { isReservedCustomUrl, RESERVED_CUSTOM_URLS } from "~/lib/reserved-urls";
import {
  dollarsToCents,
  ExpertAccountStepSchema,
  ExpertPricingSchema,
  ExpertPricingStepSchema,
  ExpertProfileStepSchema,
  filterCustomUrlInput,
  makeExpertGeneralSchema,
} from "~/schemas/expert";

type Fields = Record<string, string | string[]>;

function form(fields: Fields) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  }
  return data;
}

// biome-ignore lint/suspicious/noExplicitAny: any zod schema
function errorsOf(schema: any, fields: Fields) {
  const submission = parseWithZod(form(fields), { schema });
  return submission.status === "success" ? {} : (submission.error ?? {});
}
// biome-ignore lint/suspicious/noExplicitAny: any zod schema
function parsedValue(schema: any, fields: Fields) {
  const submission = parseWithZod(form(fields), { schema });
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
  return submission.value;
}

const validProfile: Fields = {
  title: "Growth Advisor",
  occupation: "Acme Ltd",
  customUrl: "jane-doe",
  categoryId: "3",
  expertise: ["Sales", "Marketing and Branding"],
  bio: "I have helped forty small companies find their first hundred customers profitably.",
};

describe("the sign-up wizard's rules (SPEC.md section 5)", () => {
  it("checks each account field at its boundary with SPEC.md's messages", () => {
    const ok = { username: "abc", password: "123456", email: "a@b.co", firstName: "A", lastName: "B" };
    expect(errorsOf(ExpertAccountStepSchema, ok)).toEqual({});
    expect(errorsOf(ExpertAccountStepSchema, { ...ok, username: "ab" }).username).toEqual([
      "Username must be at least 3 characters",
    ]);
    expect(errorsOf(ExpertAccountStepSchema, { ...ok, password: "12345" }).password).toEqual([
      "Password must be at least 6 characters",
    ]);
    expect(errorsOf(ExpertAccountStepSchema, { ...ok, email: "nope" }).email).toEqual([
      "Please provide a valid email address",
    ]);
    const missing = errorsOf(ExpertAccountStepSchema, { ...ok, firstName: " ", lastName: "" });
    expect(missing.firstName).toEqual(["First name is required"]);
    expect(missing.lastName).toEqual(["Last name is required"]);
  });

  it("checks the profile step: bio 50, title 3, occupation 3, a category, 1 to 3 expertise areas", () => {
    expect(errorsOf(ExpertProfileStepSchema, validProfile)).toEqual({});
    const bio49 = "x".repeat(49);
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, bio: bio49 }).bio).toEqual([
      "Bio must be at least 50 characters",
    ]);
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, bio: "x".repeat(50) })).toEqual({});
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, title: "ab" }).title).toEqual([
      "Professional title is required",
    ]);
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, title: "abc" })).toEqual({});
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, occupation: "ab" }).occupation).toHaveLength(
      1,
    );
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, occupation: "abc" })).toEqual({});
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, categoryId: "" }).categoryId).toEqual([
      "Please select a category",
    ]);
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, categoryId: "0" }).categoryId).toEqual([
      "Please select a category",
    ]);
    const { expertise: _, ...noExpertise } = validProfile;
    expect(errorsOf(ExpertProfileStepSchema, noExpertise).expertise).toEqual([
      "Please list at least one area of expertise",
    ]);
    expect(
      errorsOf(ExpertProfileStepSchema, {
        ...validProfile,
        expertise: ["Sales", "Legal", "E-commerce", "Tech and AI"],
      }).expertise,
    ).toEqual(["You can select up to 3 categories"]);
    expect(parsedValue(ExpertProfileStepSchema, { ...validProfile, expertise: "Sales" }).expertise).toEqual([
      "Sales",
    ]);
  });

  it("lower-cases the custom URL and allows underscores, but refuses short, odd, numeric and reserved ones", () => {
    expect(parsedValue(ExpertProfileStepSchema, { ...validProfile, customUrl: "Jane_Doe-1" }).customUrl).toBe(
      "jane_doe-1",
    );
    expect(
      parsedValue(ExpertProfileStepSchema, { ...validProfile, customUrl: "" }).customUrl,
    ).toBeUndefined();
    expect(parsedValue(ExpertProfileStepSchema, { ...validProfile, customUrl: "abc" }).customUrl).toBe("abc");
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, customUrl: "ab" }).customUrl).toEqual([
      "Custom URL must be at least 3 characters",
    ]);
    expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, customUrl: "jane doe" }).customUrl).toEqual([
      "URL can only contain letters, numbers, underscores, and hyphens",
    ]);
    for (const noLetter of ["12345", "---", "_-_", "1-2"]) {
      expect(
        errorsOf(ExpertProfileStepSchema, { ...validProfile, customUrl: noLetter }).customUrl,
        noLetter,
      ).toEqual(["Custom URL must contain at least one letter"]);
    }
    expect(parsedValue(ExpertProfileStepSchema, { ...validProfile, customUrl: "a-1" }).customUrl).toBe("a-1");
    for (const word of ["about", "Admin", "experts", "become-expert"]) {
      expect(errorsOf(ExpertProfileStepSchema, { ...validProfile, customUrl: word }).customUrl, word).toEqual(
        ["This custom URL is reserved. Please choose another one."],
      );
    }
    expect(
      errorsOf(ExpertProfileStepSchema, { ...validProfile, customUrl: "x".repeat(51) }).customUrl,
    ).toHaveLength(1);
  });

  it("parses prices typed in dollars to cents: minimums $5 and $30, and 'abc' becomes 0 and is refused", () => {
    const ok = { questionRate: "5", sessionPrice: "30", termsAgreed: "on" };
    expect(parsedValue(ExpertPricingStepSchema, ok)).toEqual({
      questionRate: 500,
      sessionPrice: 3000,
      termsAgreed: true,
    });
    expect(parsedValue(ExpertPricingStepSchema, { ...ok, questionRate: "12.345" }).questionRate).toBe(1235);
    const under = errorsOf(ExpertPricingStepSchema, { ...ok, questionRate: "4.99", sessionPrice: "29.99" });
    expect(under.questionRate).toEqual(["Question rate must be at least $5"]);
    expect(under.sessionPrice).toEqual(["Session price must be at least $30"]);
    const letters = errorsOf(ExpertPricingStepSchema, { ...ok, questionRate: "abc", sessionPrice: "" });
    expect(letters.questionRate).toEqual(["Question rate must be at least $5"]);
    expect(letters.sessionPrice).toEqual(["Session price must be at least $30"]);
    expect(errorsOf(ExpertPricingStepSchema, { questionRate: "10", sessionPrice: "50" }).termsAgreed).toEqual(
      ["You must agree to the terms and conditions"],
    );
  });
});

describe("the profile edit rules (SPEC.md section 5)", () => {
  const schema = makeExpertGeneralSchema(null);
  const general: Fields = {
    title: "abc",
    categoryId: "1",
    expertise: "Sales",
    bio: "x".repeat(10),
  };

  it("accepts the minimum and refuses one under for bio, title and consulting topics", () => {
    expect(errorsOf(schema, general)).toEqual({});
    expect(errorsOf(schema, { ...general, bio: "x".repeat(9) }).bio).toEqual([
      "Bio must be at least 10 characters",
    ]);
    expect(errorsOf(schema, { ...general, bio: "x".repeat(500) })).toEqual({});
    expect(errorsOf(schema, { ...general, bio: "x".repeat(501) }).bio).toEqual([
      "Bio must be at most 500 characters",
    ]);
    expect(errorsOf(schema, { ...general, title: "ab" }).title).toEqual([
      "Title must be at least 3 characters",
    ]);
    expect(errorsOf(schema, { ...general, consultingTopics: "abcd" }).consultingTopics).toHaveLength(1);
    expect(errorsOf(schema, { ...general, consultingTopics: "abcde" })).toEqual({});
    expect(errorsOf(schema, { ...general, consultingTopics: "x".repeat(301) }).consultingTopics).toHaveLength(
      1,
    );
    expect(errorsOf(schema, { ...general, consultingTopics: "x".repeat(300) })).toEqual({});
  });

  it("allows only lower-case letters, digits and hyphens in a new custom URL", () => {
    expect(errorsOf(schema, { ...general, customUrl: "abc" })).toEqual({});
    expect(errorsOf(schema, { ...general, customUrl: "ab" }).customUrl).toEqual([
      "Custom URL must be at least 3 characters",
    ]);
    for (const bad of ["Jane", "jane_doe", "jane.doe"]) {
      expect(errorsOf(schema, { ...general, customUrl: bad }).customUrl, bad).toEqual([
        "URL can only contain lowercase letters, numbers, and hyphens",
      ]);
    }
    expect(errorsOf(schema, { ...general, customUrl: "admin" }).customUrl).toEqual([
      "This custom URL is reserved. Please choose another one.",
    ]);
    // An address made under the sign-up rule (underscores) stays valid while it is unchanged.
    expect(errorsOf(makeExpertGeneralSchema("jane_doe"), { ...general, customUrl: "jane_doe" })).toEqual({});
  });

  it("accepts only http(s) links for the social profiles", () => {
    expect(errorsOf(schema, { ...general, socialWebsite: "https://example.com" })).toEqual({});
    for (const bad of ["javascript:alert(1)", "example", "ftp://example.com/x", "https://localhost"]) {
      expect(errorsOf(schema, { ...general, socialLinkedIn: bad }).socialLinkedIn, bad).toHaveLength(1);
    }
  });

  it("applies the edit-form price minimums $5.00 and $10.00", () => {
    expect(parsedValue(ExpertPricingSchema, { questionRate: "5", sessionPrice: "10" })).toEqual({
      questionRate: 500,
      sessionPrice: 1000,
    });
    const under = errorsOf(ExpertPricingSchema, { questionRate: "4.99", sessionPrice: "9.99" });
    expect(under.questionRate).toEqual(["Minimum question rate is $5.00"]);
    expect(under.sessionPrice).toEqual(["Minimum session price is $10.00"]);
    expect(errorsOf(ExpertPricingSchema, { questionRate: "abc", sessionPrice: "10" }).questionRate).toEqual([
      "Minimum question rate is $5.00",
    ]);
  });

  it("reads a price written with an exponent as non-numeric, however large", () => {
    for (const price of ["1e3", "1e9", " 2E5 ", "1e400"]) {
      expect(errorsOf(ExpertPricingSchema, { questionRate: price, sessionPrice: price }), price).toEqual({
        questionRate: ["Minimum question rate is $5.00"],
        sessionPrice: ["Minimum session price is $10.00"],
      });
    }
  });

  it("says the $10,000 ceiling, and only that, for any price past it, however large", () => {
    for (const price of ["10000.01", "99999999999999999999", "9".repeat(400), " 200000 "]) {
      expect(errorsOf(ExpertPricingSchema, { questionRate: price, sessionPrice: price }), price).toEqual({
        questionRate: ["Please enter a price of at most $10,000.00"],
        sessionPrice: ["Please enter a price of at most $10,000.00"],
      });
    }
  });
});

describe("custom URL helpers", () => {
  it("filters what is typed live", () => {
    expect(filterCustomUrlInput("Jane Doe_1!", { allowUnderscore: true })).toBe("janedoe_1");
    expect(filterCustomUrlInput("Jane Doe_1!", { allowUnderscore: false })).toBe("janedoe1");
  });

  it("reserves every first path segment of the app", () => {
    for (const word of [
      "about",
      "admin",
      "api",
      "expert",
      "experts",
      "media",
      "favicon.svg",
      "www",
      "earnings",
      "share",
    ]) {
      expect(RESERVED_CUSTOM_URLS.includes(word), word).toBe(true);
    }
    expect(isReservedCustomUrl("ABOUT")).toBe(true);
    expect(isReservedCustomUrl("jane-doe")).toBe(false);
  });
});

describe("dollarsToCents", () => {
  it.each([
    ["5", 500],
    ["5.00", 500],
    ["12.5", 1250],
    ["0.01", 1],
    ["  7.25 ", 725],
    [20, 2000],
    [0, 0],
  ])("reads %j as %i cents", (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });

  it("turns text that is not a number into 0", () => {
    expect(dollarsToCents("abc")).toBe(0);
    expect(dollarsToCents("")).toBe(0);
    expect(dollarsToCents("$5")).toBe(0);
    expect(dollarsToCents(Number.NaN)).toBe(0);
    expect(dollarsToCents(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("rounds to the nearest whole cent, without floating-point drift", () => {
    // 0.1 * 100, 19.99 * 100 and 0.29 * 100 are not whole numbers in floating point.
    expect(dollarsToCents("0.1")).toBe(10);
    expect(dollarsToCents("19.99")).toBe(1999);
    expect(dollarsToCents("4.994")).toBe(499);
    expect(dollarsToCents("4.996")).toBe(500);
    expect(dollarsToCents(0.29)).toBe(29);
    expect(Number.isInteger(dollarsToCents("33.333333"))).toBe(true);
  });

  it("turns anything but a plain decimal number into 0, never a misread amount", () => {
    // A decimal comma or a thousands separator would otherwise be read as far less.
    expect(dollarsToCents("49,99")).toBe(0);
    expect(dollarsToCents("5,000")).toBe(0);
    expect(dollarsToCents("12.50 USD")).toBe(0);
    expect(dollarsToCents("1e3")).toBe(0);
    expect(dollarsToCents("-5")).toBe(0);
    expect(dollarsToCents("5.")).toBe(500);
    expect(dollarsToCents(".5")).toBe(50);
  });

  it("round-trips with formatCents below $1,000, where it writes no separator", () => {
    for (const cents of [0, 1, 99, 500, 1999, 2000, 99999]) {
      expect(dollarsToCents(formatCents(cents).slice(1))).toBe(cents);
    }
    // Grouped amounts are for reading only: typed, the comma is refused rather than misread.
    expect(dollarsToCents(formatCents(123456).slice(1))).toBe(0);
  });
});
