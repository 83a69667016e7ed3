import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Link, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { MonthCalendar } from "~/components/bookings/month-calendar";
import { ExpertAvatar } from "~/components/expert-avatar";
import { SERVER_UNREACHABLE_MESSAGE, sayServerUnreachable } from "~/components/keep-form-when-offline";
import { NeedsJavaScript } from "~/components/needs-javascript";
import { PaymentFields } from "~/components/payment/payment-fields";
import { PAYMENT_TEXTS, type PaymentHandle } from "~/components/payment/types";
import { Button, buttonClass } from "~/components/ui/button";
import { ErrorList, Field, Label, TextareaField } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { useFocusFirstInvalid } from "~/components/use-focus-first-invalid";
import { requiredFields, useForm } from "~/components/use-form";
import { useHydrated } from "~/components/use-hydrated";
import { BOOK_DRAFT_PREFIX, useSessionDraft } from "~/components/use-session-draft";
import { bookedPath, bookedToast } from "~/lib/booking-texts";
import { expertProfilePath } from "~/lib/experts";
import { formatCents } from "~/lib/money";
import {
  BOOKING_HORIZON_DAYS,
  browserTimeZone,
  dateInZone,
  formatInstantTime,
  formatLongDate,
  instantToLocal,
  monthOf,
  overlapsBusy,
  type ScheduleWindow,
  type Slot,
  slotsOnViewerDate,
  timeZoneLabel,
  upcomingSlots,
  viewerDates,
  zoneName,
} from "~/lib/slots";
import { BOOKING_LIMITS, BookingFormSchema } from "~/schemas/bookings";

/**
 * The booking screen (SPEC.md "Book a session"): a date picker and hourly times in the client's own
 * zone (the expert's beside them), the client's details and message, and the card payment. The
 * server holds the slot and takes the payment (POST /api/bookings, then /api/bookings/{id}/payment);
 * a time someone else took first is refused with 409 and the list is refreshed.
 */

export const LOGIN_TOAST = {
  title: "Authentication Required",
  description: "Please log in to book a session.",
  variant: "destructive" as const,
};

export const loginPath = (path: string) => `/auth?${new URLSearchParams({ redirectTo: path })}`;

class LoginRequired extends Error {}
/** The booking's request never completed (offline, a dropped connection). */
class ConnectionLost extends Error {}
class SlotTaken extends Error {}
/**
 * The server refused the chosen date or time itself (the expert changed their hours or zone since
 * the page loaded, or the hour passed): the listed times are stale, so they are fetched again.
 */
class SlotRefused extends Error {}
/** The expert changed their price while the page was open: show the new one before any charge. */
class PriceChanged extends Error {}
class AlreadyBooked extends Error {
  constructor(
    readonly bookingId: number,
    readonly status: "confirmed" | "pending",
  ) {
    super("already booked");
  }
}

/** What /book/{expertId} loads (app/services/booking-page.server.ts). */
export type BookingPageData =
  | { found: false; expert: null }
  | {
      found: true;
      expert: {
        id: number;
        name: string;
        title: string | null;
        profileImage: string | null;
        customUrl: string | null;
        /** Integer cents. */
        sessionPrice: number;
        timeZone: string;
        isAvailable: boolean;
        schedule: ScheduleWindow[];
      };
      /** Starts (epoch ms) already booked or held. */
      busy: number[];
      now: number;
      ownProfile: boolean;
      mode: "test" | "paid";
      publishableKey: string | null;
      client: { name: string; email: string };
      /** The client's own unpaid hold, after a payment on a bank's page failed: chosen again. */
      retry: { bookingId: number; startsAt: number; message: string } | null;
    };

type LoaderData = Extract<BookingPageData, { found: true }>;

/** The booking screen, or SPEC.md's alert for an expert that does not exist. */
export function BookingPage({ data }: { data: BookingPageData }) {
  if (!data.found) return <ExpertNotFound />;
  return <BookScreen {...data} />;
}

function ExpertNotFound() {
  return (
    <div className="page narrow-page stack-lg">
      <h1>Book a Session</h1>
      <div className="notice notice--danger" role="alert">
        This expert could not be found. Please check the URL and try again.
      </div>
      <p>
        <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
          Browse Experts
        </Link>
      </p>
    </div>
  );
}

type ApiBody = {
  error?: string;
  status?: string;
  bookingId?: number;
  clientSecret?: string;
  fieldErrors?: Record<string, string[]>;
  slots?: unknown[];
  reason?: string;
  redirectTo?: string;
};

function BookScreen({ expert, busy, now, ownProfile, mode, publishableKey, client, retry }: LoaderData) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const paymentRef = useRef<PaymentHandle>(null);
  const [paymentReady, setPaymentReady] = useState(false);
  const onReadyChange = useCallback((ready: boolean) => setPaymentReady(ready), []);
  const [busyState, setBusyState] = useState(false);
  // Read by a second press while the first is on its way (the button stays enabled, keeping focus).
  const busyRef = useRef(false);
  const [status, setStatus] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // Starts this screen learnt were taken since the page loaded (a 409), until the list reloads.
  const [takenNow, setTakenNow] = useState<number[]>([]);
  // After a declined card the same booking (hold and PaymentIntent) is paid for again.
  const unpaidBookingId = useRef<number | null>(retry?.bookingId ?? null);

  const expertName = expert.name || "Expert";
  const priceText = formatCents(expert.sessionPrice);
  const testMode = mode === "test";
  // The client's own zone once the page runs in their browser; the expert's while rendering on the server.
  const viewerZone = hydrated ? browserTimeZone() : expert.timeZone;
  const sameZone = viewerZone === expert.timeZone;

  const scheduled = useMemo(
    () => upcomingSlots({ schedule: expert.schedule, timeZone: expert.timeZone, now }),
    [expert.schedule, expert.timeZone, now],
  );
  const free = useMemo(() => {
    const taken = [...busy, ...takenNow];
    return scheduled.filter((slot) => !overlapsBusy(slot.startsAt, taken));
  }, [scheduled, busy, takenNow]);
  const enabledDates = useMemo(() => viewerDates(scheduled, viewerZone), [scheduled, viewerZone]);
  const today = dateInZone(now, viewerZone);
  const lastDate = dateInZone(now + BOOKING_HORIZON_DAYS * 86_400_000, viewerZone);

  const [month, setMonth] = useState(() => monthOf(today));
  // Once the page runs in the client's browser, open on the client's own current month.
  const todayMonth = monthOf(today);
  useEffect(() => {
    if (hydrated) setMonth(todayMonth);
  }, [hydrated, todayMonth]);
  const [date, setDate] = useState<string | null>(null);
  const [time, setTime] = useState("");
  // A hold being paid again is chosen again, in the client's own zone once that is known.
  // Keyed by the instant, not the object: a reload of the page's data must not undo a new choice.
  const retryStartsAt = retry?.startsAt ?? null;
  useEffect(() => {
    if (!hydrated || retryStartsAt === null) return;
    const local = instantToLocal(retryStartsAt, viewerZone);
    setMonth(monthOf(local.date));
    setDate(local.date);
    setTime(local.time);
  }, [hydrated, retryStartsAt, viewerZone]);

  // The chosen start is kept in the tab like the message, so a reload, or signing in again after
  // the session ended, brings it back while it is still free.
  const [savedStartsAt, setSavedStartsAt] = useState<number | null>(null);
  useEffect(() => {
    if (!hydrated || savedStartsAt === null || !free.some((slot) => slot.startsAt === savedStartsAt)) return;
    const local = instantToLocal(savedStartsAt, viewerZone);
    setMonth(monthOf(local.date));
    setDate(local.date);
    setTime(local.time);
    setSavedStartsAt(null);
  }, [hydrated, savedStartsAt, free, viewerZone]);

  const timeOptions = useMemo(() => {
    if (!date) return [];
    const seen = new Set<string>();
    const options: { value: string; label: string; slot: Slot }[] = [];
    for (const slot of slotsOnViewerDate(free, date, viewerZone)) {
      const value = instantToLocal(slot.startsAt, viewerZone).time;
      if (seen.has(value)) continue; // a wall clock repeated by an autumn change: its first occurrence
      seen.add(value);
      const mine = formatInstantTime(slot.startsAt, viewerZone);
      const theirs = formatInstantTime(slot.startsAt, expert.timeZone);
      options.push({ value, label: sameZone ? mine : `${mine} (${theirs})`, slot });
    }
    return options;
  }, [date, free, viewerZone, expert.timeZone, sameZone]);
  const chosen = timeOptions.find((option) => option.value === time) ?? null;

  useSessionDraft(
    `${BOOK_DRAFT_PREFIX}${expert.id}:start`,
    chosen ? String(chosen.slot.startsAt) : "",
    (text) => setSavedStartsAt(Number(text)),
  );

  function chooseDate(next: string) {
    setDate(next);
    setFormError(null);
    // The chosen start stays only if the new date offers it too.
    const stillThere = slotsOnViewerDate(free, next, viewerZone).some(
      (slot) => instantToLocal(slot.startsAt, viewerZone).time === time,
    );
    if (!stillThere) setTime("");
  }

  const [form, fields] = useForm({
    id: "book-session",
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { name: client.name, email: client.email, message: retry?.message },
    constraint: requiredFields(BookingFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BookingFormSchema }),
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status === "success") void book(submission.value);
    },
  });
  useFocusFirstInvalid(form.id);
  // The message is kept in the tab until the session is booked (the thank-you page forgets it). It
  // is put back only into a form on the page: an expert who stopped taking bookings shows none (and
  // conform throws on a missing form), and the draft waits in the tab for when they start again.
  useSessionDraft(`${BOOK_DRAFT_PREFIX}${expert.id}`, fields.message.value ?? "", (text) => {
    if (document.getElementById(form.id)) form.update({ name: fields.message.name, value: text });
  });

  function slotWasTaken(message: string, startsAt: number | null) {
    if (startsAt !== null) setTakenNow((current) => [...current, startsAt]);
    setTime("");
    setFormError(message);
    toast({ title: "Time no longer available", description: message, variant: "destructive" });
    revalidator.revalidate();
    focusTimeChoice();
  }

  /** Next: another time. Focus goes to where it is chosen, not to the top of the page. */
  function focusTimeChoice() {
    requestAnimationFrame(() => document.getElementById(timeSelectId)?.focus());
  }

  async function postBooking(values: {
    name: string;
    email: string;
    message: string;
    date: string;
    time: string;
  }) {
    const sent = fetch("/api/bookings", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        expertId: expert.id,
        ...values,
        timeZone: viewerZone,
        expectedAmount: expert.sessionPrice,
        ...(unpaidBookingId.current ? { bookingId: unpaidBookingId.current } : {}),
      }),
    });
    // fetch() rejects (a TypeError, "Failed to fetch") only when the request never completes.
    const response = await sent.catch(() => {
      throw new ConnectionLost();
    });
    if (response.status === 401) throw new LoginRequired();
    const body = (await response.json().catch(() => ({}))) as ApiBody;
    if (body.reason === "price_changed") throw new PriceChanged(body.error);
    // Taken by someone else: the answer brings the date's free slots. Other refusals are plain errors.
    if (response.status === 409 && body.slots !== undefined && body.error) {
      throw Object.assign(new SlotTaken(body.error), { status: 409 });
    }
    if (response.status === 400 && body.error && (body.fieldErrors?.date || body.fieldErrors?.time)) {
      throw new SlotRefused(body.error);
    }
    if (!response.ok || !body.bookingId)
      throw new Error(body.error ?? "An error occurred. Please try again.");
    return body;
  }

  async function book(values: { name: string; email: string; message: string; date: string; time: string }) {
    if (busyRef.current) return;
    setFormError(null);
    const startsAt = chosen?.slot.startsAt ?? null;
    if (!testMode && (!paymentRef.current || !paymentReady)) {
      toast({ title: "Error", description: PAYMENT_TEXTS.notReady, variant: "destructive" });
      return;
    }
    setBusyState(true);
    busyRef.current = true;
    try {
      if (testMode) {
        const body = await postBooking(values);
        toast({ title: "Success! (Test Mode)", description: "Your session is booked." });
        navigate(`/thank-you?booking=${body.bookingId}`);
        return;
      }
      let bookingId: number | null = null;
      const outcome = await paymentRef.current!.pay(async () => {
        const body = await postBooking(values);
        bookingId = body.bookingId!;
        if (body.status === "confirmed" || body.status === "pending")
          throw new AlreadyBooked(bookingId, body.status);
        unpaidBookingId.current = bookingId;
        if (!body.clientSecret) throw new Error(PAYMENT_TEXTS.initFailed);
        return {
          clientSecret: body.clientSecret,
          returnUrl: `${window.location.origin}/book/return?booking=${bookingId}`,
        };
      });
      if (!outcome.ok) {
        if (outcome.cause instanceof LoginRequired || outcome.cause instanceof ConnectionLost)
          throw outcome.cause;
        if (outcome.cause instanceof SlotTaken || outcome.cause instanceof SlotRefused) throw outcome.cause;
        if (outcome.cause instanceof AlreadyBooked) {
          unpaidBookingId.current = null;
          toast(bookedToast(outcome.cause.status));
          navigate(bookedPath(outcome.cause.bookingId, outcome.cause.status));
          return;
        }
        const title = outcome.stage === "payment" || outcome.stage === "details" ? "Payment Failed" : "Error";
        toast({ title, description: outcome.message, variant: "destructive" });
        setFormError(outcome.message);
        return;
      }
      const confirmed = await fetch(`/api/bookings/${bookingId}/payment`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ paymentIntentId: outcome.paymentIntentId }),
      });
      const body = (await confirmed.json().catch(() => ({}))) as ApiBody;
      if (!confirmed.ok) {
        if (confirmed.status === 409) {
          unpaidBookingId.current = null;
          slotWasTaken(body.error ?? "", startsAt);
          return;
        }
        toast({
          title: "Payment Failed",
          description: body.error ?? PAYMENT_TEXTS.initFailed,
          variant: "destructive",
        });
        setFormError(body.error ?? PAYMENT_TEXTS.initFailed);
        return;
      }
      unpaidBookingId.current = null;
      toast(bookedToast(body.status === "pending" ? "pending" : "confirmed"));
      navigate(body.redirectTo ?? `/thank-you?booking=${bookingId}`);
    } catch (error) {
      if (error instanceof LoginRequired) {
        setStatus("Redirecting to login...");
        toast(LOGIN_TOAST);
        navigate(loginPath(location.pathname));
        return;
      }
      if (error instanceof SlotTaken) {
        slotWasTaken(error.message, startsAt);
        return;
      }
      if (error instanceof SlotRefused) {
        setTime("");
        revalidator.revalidate();
        setFormError(error.message);
        toast({ title: "Time no longer available", description: error.message, variant: "destructive" });
        focusTimeChoice();
        return;
      }
      if (error instanceof PriceChanged) {
        revalidator.revalidate();
        setFormError(error.message);
        toast({ title: "Price changed", description: error.message, variant: "destructive" });
        return;
      }
      if (error instanceof ConnectionLost) {
        setFormError(SERVER_UNREACHABLE_MESSAGE);
        sayServerUnreachable();
        return;
      }
      const message =
        error instanceof Error && error.message ? error.message : "An error occurred. Please try again.";
      setFormError(message);
      toast({ title: "Error", description: message, variant: "destructive" });
    } finally {
      setBusyState(false);
      busyRef.current = false;
    }
  }

  const canBook = expert.isAvailable && !ownProfile;
  const submitDisabled = busyState || (!testMode && !paymentReady);
  const timeSelectId = "book-session-time";

  return (
    <div className="page book-page stack-lg">
      <header className="book-header">
        <h1>{`Book a Session with ${expertName}`}</h1>
        <p className="muted">
          A 60-minute 1:1 video session for {priceText}. Times are shown in your time zone, with {expertName}
          's beside them.
        </p>
        {testMode ? <span className="badge badge--warning">Test Mode Active</span> : null}
        {status ? (
          <p className="status-text" role="status">
            {status}
          </p>
        ) : null}
      </header>

      <section className="card expert-summary" aria-label="The expert you are booking">
        <ExpertAvatar src={expert.profileImage} name={expertName} size="lg" />
        <div>
          <p className="expert-summary__name">{expertName}</p>
          <p className="muted">{expert.title || "Expert Consultant"}</p>
          <p className="hint">
            <Link to={expertProfilePath(expert)}>View profile</Link>
          </p>
        </div>
      </section>

      {!expert.isAvailable ? (
        <div className="notice notice--warning" role="status">
          {expertName} is not taking new bookings right now. You can still{" "}
          <Link to={`/ask/${expert.id}`}>ask a question</Link>.
        </div>
      ) : ownProfile ? (
        <p className="form-error" role="alert">
          You can't book a session with yourself.
        </p>
      ) : null}

      {canBook ? (
        <form method="post" {...getFormProps(form)} className="book-layout">
          <section className="card stack" aria-labelledby="when-title">
            <div>
              <h2 id="when-title">Choose a time</h2>
              {hydrated ? (
                <p className="hint">
                  Your time zone: {timeZoneLabel(viewerZone)} ({zoneName(now, viewerZone)})
                  {sameZone
                    ? ", the same as the expert's."
                    : `. ${expertName}'s: ${timeZoneLabel(expert.timeZone)} (${zoneName(now, expert.timeZone)}).`}
                </p>
              ) : null}
            </div>
            {hydrated ? (
              <>
                <div className="field">
                  <span className="label label--required" id="book-date-label">
                    Date
                  </span>
                  <MonthCalendar
                    label="Choose a date for your session"
                    month={month}
                    onMonthChange={setMonth}
                    selected={date}
                    onSelect={chooseDate}
                    today={today}
                    minMonth={monthOf(today)}
                    maxMonth={monthOf(lastDate)}
                    isDisabled={(day) => day < today || day > lastDate || !enabledDates.has(day)}
                    invalid={Boolean(fields.date.errors?.length)}
                    errorId={fields.date.errorId}
                  />
                  <input type="hidden" name={fields.date.name} value={date ?? ""} />
                  <p className="hint" aria-live="polite">
                    {date ? `Selected: ${formatLongDate(date)}` : "Days without open hours are greyed out."}
                  </p>
                  <ErrorList id={fields.date.errorId} errors={fields.date.errors} />
                </div>
                <div className="field">
                  <Label htmlFor={timeSelectId}>Time</Label>
                  <select
                    id={timeSelectId}
                    name={fields.time.name}
                    required={fields.time.required}
                    className="select"
                    value={time}
                    onChange={(event) => {
                      setTime(event.currentTarget.value);
                      setFormError(null);
                    }}
                    disabled={!date || timeOptions.length === 0}
                    aria-invalid={fields.time.errors?.length ? true : undefined}
                    aria-describedby={`${timeSelectId}-hint ${fields.time.errorId}`}
                  >
                    <option value="">{date ? "Select a time" : "Select a date first"}</option>
                    {timeOptions.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                  <p id={`${timeSelectId}-hint`} className="hint" aria-live="polite">
                    {date && timeOptions.length === 0
                      ? "No available time slots for this date."
                      : chosen
                        ? `${formatLongDate(chosen.slot.date)} at ${formatInstantTime(chosen.slot.startsAt, expert.timeZone)} for ${expertName}.`
                        : "Sessions last 60 minutes and start on the hour."}
                  </p>
                  <ErrorList id={fields.time.errorId} errors={fields.time.errors} />
                </div>
              </>
            ) : (
              <>
                <NeedsJavaScript>
                  Booking needs JavaScript: it shows the expert's open times in your own time zone and takes
                  the payment securely. Please turn it on in your browser and reload this page.
                </NeedsJavaScript>
                <p className="status-text needs-js" role="status">
                  Loading expert details...
                </p>
              </>
            )}
          </section>

          <section className="card stack" aria-labelledby="details-title">
            <h2 id="details-title">Your details</h2>
            {formError ? (
              <p className="form-error" role="alert">
                {formError}
              </p>
            ) : null}
            <Field
              label="Name"
              inputProps={{
                ...getInputProps(fields.name, { type: "text" }),
                autoComplete: "name",
                maxLength: BOOKING_LIMITS.nameMax,
              }}
              errors={fields.name.errors}
            />
            <Field
              label="Email"
              inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
              errors={fields.email.errors}
            />
            <TextareaField
              label="Message"
              hint="What would you like to discuss? A few lines help the expert prepare."
              inputProps={{ ...getTextareaProps(fields.message), rows: 5 }}
              errors={fields.message.errors}
            />
            <div className="payment-box">
              <div className="payment-box__line">
                <span>60-minute session</span>
                <strong>{priceText}</strong>
              </div>
              {testMode ? (
                <p className="hint">Test Mode: sessions are booked without payment.</p>
              ) : (
                <PaymentFields
                  ref={paymentRef}
                  setup={
                    publishableKey
                      ? {
                          publishableKey,
                          amount: expert.sessionPrice,
                          currency: "usd",
                          captureMethod: "automatic",
                        }
                      : null
                  }
                  onReadyChange={onReadyChange}
                />
              )}
            </div>
            <Button
              type="submit"
              size="lg"
              block
              // Not disabled while booking: a disabled button drops the keyboard's focus to the page.
              disabled={!hydrated || (!testMode && !paymentReady)}
              aria-disabled={submitDisabled}
            >
              {busyState ? "Booking..." : `Confirm Booking (${priceText})`}
            </Button>
            <p className="hint">
              {testMode
                ? "No card is needed in test mode."
                : "Your card is charged when you book. Cancel up to 24 hours before the start for a full refund."}
            </p>
          </section>
        </form>
      ) : null}
    </div>
  );
}
