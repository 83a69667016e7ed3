import { toSingleLine } from "~/lib/single-line";
import { isValidDate, isValidTimeZone, minutesOfDay } from "~/lib/slots";
import * as z from "~/lib/zod";
import { recordId } from "./ids";

/**
 * Booking a session and setting a weekly schedule, shared by browser and server, with SPEC.md's
 * exact messages (section 5, "Booking"). conform turns empty fields into undefined, so the `error`
 * given to z.string() is the "required" message.
 */
export const BOOKING_MESSAGES = {
  name: "Name must be at least 2 characters long",
  nameTooLong: "Name must be at most 100 characters long",
  email: "Please enter a valid email address",
  date: "Please select a date for your session",
  time: "Please select a time slot",
  message: "Please provide a brief description of what you'd like to discuss",
  messageTooLong: "Your message must be at most 2,000 characters long",
  timeZone: "Please choose a valid time zone.",
} as const;

export const BOOKING_LIMITS = { nameMax: 100, messageMin: 10, messageMax: 2000 } as const;

const BookingFields = {
  name: z
    .string({ error: BOOKING_MESSAGES.name })
    .overwrite(toSingleLine)
    .trim()
    .min(2, { error: BOOKING_MESSAGES.name })
    .max(BOOKING_LIMITS.nameMax, { error: BOOKING_MESSAGES.nameTooLong }),
  email: z
    .string({ error: BOOKING_MESSAGES.email })
    .trim()
    .max(254, { error: BOOKING_MESSAGES.email })
    .pipe(z.email({ error: BOOKING_MESSAGES.email })),
  date: z
    .string({ error: BOOKING_MESSAGES.date })
    .refine((value) => isValidDate(value), { error: BOOKING_MESSAGES.date }),
  time: z.string({ error: BOOKING_MESSAGES.time }).regex(/^\d{2}:\d{2}$/, { error: BOOKING_MESSAGES.time }),
  message: z
    .string({ error: BOOKING_MESSAGES.message })
    .trim()
    .min(BOOKING_LIMITS.messageMin, { error: BOOKING_MESSAGES.message })
    .max(BOOKING_LIMITS.messageMax, { error: BOOKING_MESSAGES.messageTooLong }),
};

/** The booking screen's form. The expert comes from the URL and the price from the server. */
export const BookingFormSchema = z.object(BookingFields);

/**
 * POST /api/bookings (SPEC.md section 7): {expertId, date, time, name, email, message, status}.
 * `date` and `time` are the wall clock of the start in `timeZone` (the expert's zone when absent).
 * `status` and any price are accepted and ignored: the server decides both. `bookingId` is the
 * caller's own unpaid booking to pay for again (after a declined card).
 */
export const BookingApiSchema = BookingFormSchema.extend({
  expertId: recordId("Please choose an expert."),
  timeZone: z
    .string()
    .trim()
    .max(64)
    .refine((value) => isValidTimeZone(value), { error: BOOKING_MESSAGES.timeZone })
    .optional(),
  bookingId: z.number().int().positive().optional(),
  /** The price in cents the client was shown: checked, never charged from. */
  expectedAmount: z.number().int().nonnegative().optional(),
  status: z.unknown().optional(),
});

export type BookingRequest = z.infer<typeof BookingApiSchema>;

/** POST /api/bookings/{id}/payment: the PaymentIntent the browser confirmed. */
export const ConfirmBookingPaymentSchema = z.object({
  paymentIntentId: z
    .string({ error: "A payment is required." })
    .regex(/^pi_[A-Za-z0-9_]{1,250}$/, { error: "A payment is required." }),
});

// ---------------------------------------------------------------------------------------------
// The weekly schedule editor (/expert/availability)

export const SCHEDULE_MESSAGES = {
  timeZone: BOOKING_MESSAGES.timeZone,
  time: "Please choose a time.",
  order: "The end must be later than the start.",
  noDays: "Choose at least one day. To stop taking new bookings, switch bookings off above.",
} as const;

/** Whole hours only, as the editor offers: sessions start on the hour, so 09:30 would lose a slot. */
const WHOLE_HOUR = /^([01]\d|2[0-3]):00$|^24:00$/;
export const isWholeHourTime = (value: unknown): value is string =>
  typeof value === "string" && WHOLE_HOUR.test(value);
const WindowTime = z.string({ error: SCHEDULE_MESSAGES.time }).regex(WHOLE_HOUR, {
  error: SCHEDULE_MESSAGES.time,
});

const DaySchedule = z
  .object({
    enabled: z.boolean().default(false),
    start: WindowTime.default("09:00"),
    end: WindowTime.default("18:00"),
  })
  .superRefine((day, ctx) => {
    // A time that failed its own check has its message already (and no minutes to compare).
    if (!day.enabled || !isWholeHourTime(day.start) || !isWholeHourTime(day.end)) return;
    // Whole hours, so an end after the start leaves room for at least one session.
    if (minutesOfDay(day.end) <= minutesOfDay(day.start)) {
      ctx.addIssue({ code: "custom", path: ["end"], message: SCHEDULE_MESSAGES.order });
    }
  });

/** The schedule form: the time zone and, per day of the week (0 = Sunday), whether and when. */
export const ScheduleSchema = z
  .object({
    intent: z.literal("schedule"),
    timeZone: z
      .string({ error: SCHEDULE_MESSAGES.timeZone })
      .trim()
      .refine((value) => isValidTimeZone(value), { error: SCHEDULE_MESSAGES.timeZone }),
    days: z.array(DaySchedule).length(7),
  })
  .superRefine((value, ctx) => {
    if (!value.days.some((day) => day.enabled)) {
      ctx.addIssue({ code: "custom", path: ["days"], message: SCHEDULE_MESSAGES.noDays });
    }
  });

/** The availability switch. */
export const AvailabilitySwitchSchema = z.object({
  intent: z.literal("availability"),
  isAvailable: z.enum(["true", "false"]).transform((value) => value === "true"),
});

/** POST /api/create-payment-intent for a session; `amount` is accepted and ignored (the server prices it). */
export const SessionPaymentIntentSchema = BookingApiSchema.extend({
  type: z.literal("session"),
  amount: z.unknown().optional(),
});
