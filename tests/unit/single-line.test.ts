import { describe, expect, it } from "vitest";
import { toSingleLine } from "~/lib/single-line";
import { AccountProfileSchema } from "~/schemas/auth";
import { BookingFormSchema } from "~/schemas/bookings";
import { ExpertProfileStepSchema, makeExpertGeneralSchema } from "~/schemas/expert";

describe("names as one line", () => {
  it("turns line breaks, tabs and control characters into one space", () => {
    expect(toSingleLine("Dr X\n\nYour refund failed.\r\nVerify at evil.example")).toBe(
      "Dr X Your refund failed. Verify at evil.example",
    );
    expect(toSingleLine("Ada\tLovelace\u0000\u2028!")).toBe("Ada Lovelace !");
  });

  it("drops bidirectional overrides and keeps every other letter", () => {
    expect(toSingleLine("Ali\u202Ecod.exe")).toBe("Alicod.exe");
    expect(toSingleLine("José Ñúñez 山田 علي")).toBe("José Ñúñez 山田 علي");
  });

  it("is applied by the schemas that take a person's name", () => {
    const profile = AccountProfileSchema.parse({ name: " Grace\n\nHopper ", email: "g@example.com" });
    expect(profile.name).toBe("Grace Hopper");
    const booking = BookingFormSchema.safeParse({
      name: "Jo\n\nSee https://evil.example",
      email: "jo@example.com",
      message: "Let's talk about pricing.",
      date: "2030-01-07",
      time: "10:00",
    });
    expect(booking.success && booking.data.name).toBe("Jo See https://evil.example");
  });

  it("is applied to the one-line fields of an expert's public profile", () => {
    const general = makeExpertGeneralSchema(null).shape;
    expect(general.title.parse(" Tax\u202Eadvisor\n")).toBe("Taxadvisor");
    expect(general.occupation.parse("Owner\r\nCall 555")).toBe("Owner Call 555");
    expect(general.company.parse("\u2066Acme\u2069")).toBe("Acme");
    expect(general.location.parse("Paris\tFrance")).toBe("Paris France");
    const step = ExpertProfileStepSchema.shape;
    expect(step.title.parse("Coach\u202E")).toBe("Coach");
    expect(step.occupation.parse("Acme\nInc")).toBe("Acme Inc");
  });
});
