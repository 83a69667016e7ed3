import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { requireExpert } from "~/auth/guards.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { Button } from "~/components/ui/button";
import { ErrorList, Label } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { useForm } from "~/components/use-form";
import { useHydrated } from "~/components/use-hydrated";
import { useTypedBeforeHydration } from "~/components/use-typed-before-hydration";
import { useUnsentChanges } from "~/components/use-unsent-changes";
import { readForm } from "~/lib/form-data.server";
import {
  browserTimeZone,
  canonicalTimeZone,
  DAY_NAMES,
  DEFAULT_SCHEDULE,
  dateInZone,
  formatDayLabel,
  formatTime12,
  listTimeZones,
  type ScheduleWindow,
  startsForDay,
  timeZoneLabel,
  WEEK_ORDER,
  zoneName,
} from "~/lib/slots";
import { getScheduleForEditor, listUpcomingAppointments, saveSchedule } from "~/models/bookings.server";
import { isWholeHourTime, ScheduleSchema } from "~/schemas/bookings";
import { makeToast } from "~/services/flash.server";
import bookingsStylesHref from "~/styles/bookings.css";
import portalHref from "~/styles/expert-portal.css";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [
  { rel: "stylesheet", href: portalHref },
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: bookingsStylesHref },
];

export const meta: MetaFunction = () => [
  { title: "Availability | Expert Answers" },
  { name: "robots", content: "noindex" },
];

/** /expert/availability: the bookings switch, the next 7 days' sessions and the weekly schedule. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  if (expertId === null) return { hasProfile: false as const };
  const now = new Date(context.now());
  const editor = await getScheduleForEditor(context.db, expertId);
  if (!editor) return { hasProfile: false as const };
  const appointments = await listUpcomingAppointments(context.db, {
    expertId,
    timeZone: editor.timeZone,
    now,
  });
  return {
    hasProfile: true as const,
    expertId,
    now: now.getTime(),
    today: dateInZone(now, editor.timeZone),
    timeZone: editor.timeZone,
    isAvailable: editor.isAvailable,
    scheduleIsSet: editor.isSet,
    schedule: editor.schedule,
    appointments,
    timeZones: listTimeZones(),
  };
}

/** Saves the weekly schedule (the switch has its own endpoint, PATCH /api/experts/{id}). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  if (expertId === null) {
    return data({ result: null, error: "You need an expert profile to set a schedule." }, { status: 403 });
  }
  const submission = parseWithZod(await readForm(request), { schema: ScheduleSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), error: null }, { status: 400 });
  const windows: ScheduleWindow[] = submission.value.days.flatMap((day, dayOfWeek) =>
    day.enabled ? [{ dayOfWeek, startTime: day.start, endTime: day.end }] : [],
  );
  await saveSchedule(context.primaryDb, {
    expertId,
    timeZone: canonicalTimeZone(submission.value.timeZone) ?? submission.value.timeZone,
    windows,
    now: new Date(context.now()),
  });
  return {
    result: submission.reply(),
    error: null,
    toast: makeToast({
      title: "Schedule saved",
      description: "New clients see your new hours straight away.",
    }),
  };
}

const START_OPTIONS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, "0")}:00`);
const END_OPTIONS = [...START_OPTIONS.slice(1), "24:00"];
const timeLabel = (time: string) => (time === "24:00" ? "12:00 AM (midnight)" : formatTime12(time));

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { hasProfile: true }>;

export const clientAction = keepFormWhenOffline;

export default function ExpertAvailability() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.hasProfile) {
    return (
      <div className="stack-lg">
        <h1>Availability</h1>
        <p className="card">
          You are signed in as an administrator without an expert profile of your own.{" "}
          <Link to="/become-expert">Create your expert profile</Link> to take bookings.
        </p>
      </div>
    );
  }
  return <AvailabilityScreen {...(loaded as Loaded)} />;
}

function AvailabilityScreen(props: Loaded) {
  return (
    <div className="stack-lg availability-page">
      <header className="page-header">
        <h1>Availability</h1>
        <p className="muted">Choose when clients can book 60-minute sessions with you.</p>
      </header>
      <AvailabilitySwitch expertId={props.expertId} isAvailable={props.isAvailable} />
      <UpcomingAppointments appointments={props.appointments} today={props.today} />
      <WeeklySchedule {...props} />
    </div>
  );
}

/**
 * SPEC.md's switch, optimistic: it flips at once and flips back with "Error updating availability"
 * if the server refuses or cannot be reached.
 */
function AvailabilitySwitch({ expertId, isAvailable }: { expertId: number; isAvailable: boolean }) {
  const revalidator = useRevalidator();
  const [checked, setChecked] = useState(isAvailable);
  const [saving, setSaving] = useState(false);
  useEffect(() => setChecked(isAvailable), [isAvailable]);

  async function change(next: boolean) {
    setChecked(next);
    setSaving(true);
    let sessionEnded = false;
    try {
      const response = await fetch(`/api/experts/${expertId}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ isAvailable: next }),
      });
      sessionEnded = response.status === 401;
      if (!response.ok) throw new Error(String(response.status));
      toast({
        title: "Availability updated",
        description: next
          ? "New clients can book sessions with you."
          : "New clients can't book you now. Your scheduled sessions stay as they are.",
      });
      revalidator.revalidate();
    } catch {
      setChecked(!next);
      toast({
        title: "Error updating availability",
        // Trying again cannot work once the session has ended.
        description: sessionEnded ? "Your session has ended. Please log in again." : "Please try again.",
        variant: "destructive",
      });
    } finally {
      setSaving(false);
    }
  }

  const label = checked ? "Available for Bookings" : "Unavailable for Bookings";
  return (
    <section className="card stack" aria-labelledby="switch-title">
      <h2 id="switch-title">Bookings</h2>
      <div className="switch-field">
        <input
          id="availability-switch"
          type="checkbox"
          role="switch"
          className="switch-input"
          checked={checked}
          aria-checked={checked}
          aria-describedby="availability-switch-hint"
          aria-busy={saving || undefined}
          onChange={(event) => void change(event.currentTarget.checked)}
        />
        <div>
          <label htmlFor="availability-switch" className="label">
            {label}
          </label>
          <p id="availability-switch-hint" className="hint">
            When you are unavailable, new clients can't book you. Sessions already scheduled stay as they are.
          </p>
        </div>
      </div>
    </section>
  );
}

function UpcomingAppointments({ appointments, today }: Pick<Loaded, "appointments" | "today">) {
  return (
    <section className="card stack" aria-labelledby="appointments-title">
      <div>
        <div className="section-heading">
          <h2 id="appointments-title">Upcoming Appointments</h2>
          <Link to="/expert/bookings">All bookings</Link>
        </div>
        <p className="hint">The next 7 days, in your time zone.</p>
      </div>
      {appointments.length === 0 ? (
        <p className="empty-state">No upcoming appointments scheduled</p>
      ) : (
        <ul className="appointment-list plain-list">
          {appointments.map((appointment) => (
            <li key={appointment.id} className="appointment">
              <span className="appointment__day">{formatDayLabel(appointment.date, today)}</span>
              <span className="appointment__time">{formatTime12(appointment.time)}</span>
              <span className="appointment__duration">{`${appointment.duration} minutes`}</span>
              <span className="appointment__client">{appointment.clientName}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type DayState = { enabled: boolean; start: string; end: string };

function initialDays(schedule: readonly ScheduleWindow[]): DayState[] {
  return DAY_NAMES.map((_, dayOfWeek) => {
    const window = schedule.find((item) => item.dayOfWeek === dayOfWeek);
    return window
      ? { enabled: true, start: window.startTime, end: window.endTime }
      : { enabled: false, start: "09:00", end: "18:00" };
  });
}

/** The schedule a refused submission carried (conform's `initialValue`), or null. */
function sentSchedule(value: unknown): { days: DayState[]; timeZone: string | null } | null {
  if (!value || typeof value !== "object") return null;
  const { days, timeZone } = value as { days?: unknown; timeZone?: unknown };
  if (!Array.isArray(days)) return null;
  // Only a time the editor offers comes back (a tampered "99:99" would break the hints).
  const text = (field: unknown, fallback: string) => (isWholeHourTime(field) ? field : fallback);
  return {
    days: DAY_NAMES.map((_, dayOfWeek) => {
      const day = (days[dayOfWeek] ?? {}) as { enabled?: unknown; start?: unknown; end?: unknown };
      return { enabled: day.enabled === "on", start: text(day.start, "09:00"), end: text(day.end, "18:00") };
    }),
    timeZone: typeof timeZone === "string" ? timeZone : null,
  };
}

function startsHint(day: DayState) {
  const starts = startsForDay([{ dayOfWeek: 0, startTime: day.start, endTime: day.end }], 0);
  if (starts.length === 0) return "No 60-minute session fits.";
  const first = formatTime12(starts[0]);
  const last = formatTime12(starts[starts.length - 1]);
  return starts.length === 1
    ? `One session, at ${first}.`
    : `Sessions start on the hour from ${first} to ${last} (${starts.length} a day).`;
}

function WeeklySchedule({ expertId, timeZone, scheduleIsSet, schedule, timeZones, now }: Loaded) {
  const hydrated = useHydrated();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "schedule";
  // After a refused save without JavaScript the page is rendered anew: start from what was sent.
  const sent = sentSchedule(actionData?.result?.initialValue);
  const [days, setDays] = useState(
    () => sent?.days ?? initialDays(scheduleIsSet ? schedule : DEFAULT_SCHEDULE),
  );
  const update = (dayOfWeek: number, change: Partial<DayState>) =>
    setDays((current) => current.map((day, index) => (index === dayOfWeek ? { ...day, ...change } : day)));
  const [zone, setZone] = useState(sent?.timeZone ?? timeZone);
  const [zoneFromBrowser, setZoneFromBrowser] = useState(false);
  const zoneChosenBeforeHydration = useRef(false);

  useEffect(() => {
    if (actionData && "toast" in actionData && actionData.toast) toast(actionData.toast);
  }, [actionData]);

  const [form, fields] = useForm({
    id: "weekly-schedule",
    lastResult: actionData?.result ?? undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ScheduleSchema }),
  });
  // Days, hours and a zone chosen before the script ran stay chosen; so do those of a save that
  // ended on the error screen or the login page, when the schedule is shown again.
  const formRef = useRef<HTMLFormElement>(null);
  const setters: Record<string, (values: string[]) => void> = {
    [fields.timeZone.name]: ([chosen]) => {
      if (!chosen || chosen === zone) return;
      zoneChosenBeforeHydration.current = true;
      setZone(chosen);
    },
    ...Object.fromEntries(
      DAY_NAMES.flatMap((_, dayOfWeek) => {
        const prefix = `days[${dayOfWeek}]`;
        return [
          [`${prefix}.enabled`, (values: string[]) => update(dayOfWeek, { enabled: values.length > 0 })],
          [`${prefix}.start`, ([start]: string[]) => start && update(dayOfWeek, { start })],
          [`${prefix}.end`, ([end]: string[]) => end && update(dayOfWeek, { end })],
        ];
      }),
    ),
  };
  useTypedBeforeHydration(formRef, setters);
  useUnsentChanges(
    `weekly-schedule:${expertId}`,
    formRef,
    { formData: saving ? navigation.formData : undefined, data: actionData, state: navigation.state },
    setters,
  );

  // First setup: suggest the browser's own zone (the stored one is only the default).
  useEffect(() => {
    if (scheduleIsSet || !hydrated || zoneChosenBeforeHydration.current) return;
    const detected = browserTimeZone();
    if (detected !== timeZone) {
      setZone(detected);
      setZoneFromBrowser(true);
    }
  }, [hydrated, scheduleIsSet, timeZone]);

  const zoneOptions = timeZones.includes(zone) ? timeZones : [zone, ...timeZones];

  return (
    <section className="card stack" aria-labelledby="schedule-title">
      <div>
        <h2 id="schedule-title">Weekly Schedule</h2>
        <p className="hint">
          The hours you take sessions, in your own time zone. Clients see them in theirs.
          {scheduleIsSet
            ? ""
            : " You have not set a schedule yet, so Monday to Friday, 9:00 AM to 6:00 PM applies."}
        </p>
      </div>
      <Form ref={formRef} method="post" {...getFormProps(form)} className="stack">
        <input type="hidden" name="intent" value="schedule" />
        {form.errors ? (
          <p className="form-error" role="alert" id={form.errorId}>
            {form.errors.join(" ")}
          </p>
        ) : null}
        {actionData && "error" in actionData && actionData.error ? (
          <p className="form-error" role="alert">
            {actionData.error}
          </p>
        ) : null}
        <div className="field schedule-time-zone">
          <Label htmlFor="schedule-time-zone">Time zone</Label>
          <select
            id="schedule-time-zone"
            name={fields.timeZone.name}
            className="select"
            value={zone}
            onChange={(event) => {
              setZone(event.currentTarget.value);
              setZoneFromBrowser(false);
            }}
            aria-describedby="schedule-time-zone-hint"
          >
            {zoneOptions.map((name) => (
              <option key={name} value={name}>
                {timeZoneLabel(name)}
              </option>
            ))}
          </select>
          <p id="schedule-time-zone-hint" className="hint">
            {zoneFromBrowser
              ? `Detected from your browser (${zoneName(now, zone)}). Save to keep it.`
              : `Now ${zoneName(now, zone)}. Sessions already booked keep their time.`}
          </p>
          <ErrorList id={fields.timeZone.errorId} errors={fields.timeZone.errors} />
        </div>
        <fieldset className="schedule-days">
          <legend className="label">Days and hours</legend>
          <ErrorList id={fields.days.errorId} errors={fields.days.errors} />
          {WEEK_ORDER.map((dayOfWeek) => {
            const day = days[dayOfWeek];
            const name = DAY_NAMES[dayOfWeek];
            const prefix = `days[${dayOfWeek}]`;
            // By name: the field list follows the form's default value, which this form does not set.
            const endErrors = form.allErrors[`${prefix}.end`];
            return (
              <div key={dayOfWeek} className="schedule-day" data-enabled={day.enabled}>
                <div className="schedule-day__name">
                  <input
                    id={`day-${dayOfWeek}-enabled`}
                    type="checkbox"
                    name={`${prefix}.enabled`}
                    checked={day.enabled}
                    onChange={(event) => update(dayOfWeek, { enabled: event.currentTarget.checked })}
                  />
                  <label htmlFor={`day-${dayOfWeek}-enabled`}>{name}</label>
                </div>
                {day.enabled ? (
                  <div className="schedule-day__hours">
                    <label className="visually-hidden" htmlFor={`day-${dayOfWeek}-start`}>
                      {`${name} from`}
                    </label>
                    <select
                      id={`day-${dayOfWeek}-start`}
                      name={`${prefix}.start`}
                      className="select"
                      value={day.start}
                      onChange={(event) => update(dayOfWeek, { start: event.currentTarget.value })}
                    >
                      {START_OPTIONS.map((time) => (
                        <option key={time} value={time}>
                          {timeLabel(time)}
                        </option>
                      ))}
                    </select>
                    <span aria-hidden="true">to</span>
                    <label className="visually-hidden" htmlFor={`day-${dayOfWeek}-end`}>
                      {`${name} until`}
                    </label>
                    <select
                      id={`day-${dayOfWeek}-end`}
                      name={`${prefix}.end`}
                      className="select"
                      value={day.end}
                      aria-invalid={endErrors?.length ? true : undefined}
                      aria-describedby={`day-${dayOfWeek}-hint day-${dayOfWeek}-error`}
                      onChange={(event) => update(dayOfWeek, { end: event.currentTarget.value })}
                    >
                      {END_OPTIONS.map((time) => (
                        <option key={time} value={time}>
                          {timeLabel(time)}
                        </option>
                      ))}
                    </select>
                    <p id={`day-${dayOfWeek}-hint`} className="hint schedule-day__hint">
                      {startsHint(day)}
                    </p>
                    <ErrorList id={`day-${dayOfWeek}-error`} errors={endErrors} />
                  </div>
                ) : (
                  <>
                    {/* Keeps the day's place in the list (and its hours for next time). */}
                    <input type="hidden" name={`${prefix}.start`} value={day.start} />
                    <input type="hidden" name={`${prefix}.end`} value={day.end} />
                    <p className="muted schedule-day__off">Not available</p>
                  </>
                )}
              </div>
            );
          })}
        </fieldset>
        <div>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Schedule"}
          </Button>
        </div>
      </Form>
    </section>
  );
}
