import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useLocation, useNavigate, useNavigation, useNavigationType } from "@remix-run/react";
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { ExpertisePicker } from "~/components/expertise-picker";
import { ImagePicker } from "~/components/image-picker";
import { PrefixedField } from "~/components/prefixed-field";
import { SelectField } from "~/components/select-field";
import { Button } from "~/components/ui/button";
import { cx } from "~/components/ui/cx";
import { ErrorList, Field, TextareaField } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { requiredFields } from "~/components/use-form";
import { useHydrated } from "~/components/use-hydrated";
import { useTypedBeforeHydration } from "~/components/use-typed-before-hydration";
import { useUnsentChanges } from "~/components/use-unsent-changes";
import { browserTimeZone, timeZoneLabel } from "~/lib/slots";
import {
  EXPERT_LIMITS,
  ExpertAccountStepSchema,
  ExpertPricingStepSchema,
  ExpertProfileStepSchema,
  type ExpertSignupResult,
  filterCustomUrlInput,
  PARTIAL_SUCCESS_NOTICE,
  PROFILE_CREATED_NOTICE,
  SIGNED_IN_FIELD,
  type SignupNotice,
} from "~/schemas/expert";

/** SPEC.md section 9: the wizard's redirects wait 1.5 s so the notice can be read. */
export const REDIRECT_DELAY_MS = 1500;

/** After a send whose outcome is unknown: a second send is safe, and its answer tells. */
export const sendAgainToKnow = (signedIn: boolean) =>
  signedIn
    ? "What you typed is still here: send it again. If your profile was made, you will be taken to your dashboard."
    : "What you typed is still here: send it again, and if the username is then refused as taken, try signing in with it.";

const STEPS = {
  account: { label: "Account", schema: ExpertAccountStepSchema },
  profile: { label: "Profile", schema: ExpertProfileStepSchema },
  pricing: { label: "Pricing", schema: ExpertPricingStepSchema },
} as const;
type StepKey = keyof typeof STEPS;
const fieldsOf = (step: StepKey) => Object.keys(STEPS[step].schema.shape);
/** The fields the steps require, marked as every form's are (requiredFields: the star, `required`). */
const REQUIRED: Record<string, unknown> = Object.assign(
  {},
  ...Object.values(STEPS).map((step) => requiredFields(step.schema)),
);

type Errors = Record<string, string[]>;
const TEXT_INPUT_TYPES = new Set(["text", "email", "password", "url", "search", "tel", "number"]);

/** Validates one step's fields from the whole form (every step's inputs stay in the one form). */
function validateStep(step: StepKey, form: HTMLFormElement): Errors {
  const submission = parseWithZod(new FormData(form), { schema: STEPS[step].schema });
  if (submission.status === "success") return {};
  const errors: Errors = {};
  for (const [name, messages] of Object.entries(submission.error ?? {})) {
    if (messages?.length) errors[name] = messages;
  }
  return errors;
}

/** The field errors of a refused application, as the server sent them. */
function serverErrorsOf(result: ExpertSignupResult | null): Errors {
  const errors: Errors = {};
  if (result?.status !== "invalid") return errors;
  for (const [name, messages] of Object.entries(result.errors)) {
    if (messages?.length) errors[name] = messages;
  }
  return errors;
}

export function useRedirectAfter(to: string | null, delay = REDIRECT_DELAY_MS) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!to) return;
    const timer = setTimeout(() => navigate(to), delay);
    return () => clearTimeout(timer);
  }, [to, delay, navigate]);
}

type Category = { id: number; name: string; slug: string };

export function ExpertWizard({
  categories,
  siteAddress,
  signedInAs,
  answer,
}: {
  categories: Category[];
  siteAddress: string;
  signedInAs: string | null;
  answer: ExpertSignupResult | null;
}) {
  // Moving between steps (a hash change) clears the router's action data: the last answer stays
  // shown until the next one arrives.
  const [result, setResult] = useState(answer);
  if (answer && answer !== result) setResult(answer);
  const steps: StepKey[] = signedInAs === null ? ["account", "profile", "pricing"] : ["profile", "pricing"];
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post";
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);
  const [stepIndex, setStepIndex] = useState(0);
  // A refused application rendered on the server (no JavaScript) starts from what was sent, and
  // shows why it was refused.
  const [errors, setErrors] = useState<Errors>(() => serverErrorsOf(result));
  const sent = result?.status === "invalid" ? (result.values ?? {}) : {};
  const sentText = (name: string) => {
    const value = sent[name];
    return typeof value === "string" ? value : undefined;
  };
  const [customUrl, setCustomUrl] = useState(() => sentText("customUrl") ?? "");
  const [categoryId, setCategoryId] = useState(() => sentText("categoryId") ?? "");
  const [expertise, setExpertise] = useState<string[]>(() =>
    Array.isArray(sent.expertise) ? sent.expertise : [],
  );
  const [bio, setBio] = useState(() => sentText("bio") ?? "");
  const controlled = {
    customUrl: ([typed = ""]: string[]) =>
      setCustomUrl(filterCustomUrlInput(typed, { allowUnderscore: true })),
    categoryId: ([typed = ""]: string[]) => setCategoryId(typed),
    expertise: setExpertise,
    bio: ([typed = ""]: string[]) => setBio(typed),
  };
  useTypedBeforeHydration(formRef, controlled);
  // The application is kept in the tab as it is typed, until a profile is made: a reload, a send
  // that ends on the error screen, or a partial success (the account made and signed in, the
  // profile not) loses nothing but the password and the pictures.
  const [typed, setTyped] = useState<FormData>();
  const done = result?.status === "created" || result?.status === "already-expert";
  useUnsentChanges(
    "expert-application",
    formRef,
    { formData: typed, data: done ? result : undefined },
    controlled,
    { keptUntilAnswered: true },
  );
  // The weekly schedule starts in the browser's zone; without JavaScript the server uses UTC.
  const timeZone = useMemo(() => (hydrated ? browserTimeZone() : null), [hydrated]);
  const movedByUser = useRef(false);
  const step = steps[Math.min(stepIndex, steps.length - 1)];

  // Each step is a history entry, named by its hash (`#profile`), so the browser's Back and Forward
  // move between steps. Only a hash change loads no data: every entry keeps the page's query, and has
  // a hash (the router reloads the page's data when one is removed).
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const stepInHistory = steps.indexOf(location.hash.slice(1) as StepKey);
  const cameFromPreviousStep =
    (location.state as { wizardFrom?: number } | null)?.wizardFrom === stepIndex - 1;
  const entryOf = (key: StepKey) => ({ search: location.search, hash: `#${key}` });

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes, by design
  useEffect(() => {
    if (movedByUser.current) headingRef.current?.focus();
  }, [stepIndex]);

  // The server's answer: field errors send the person back to the first step that has one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: handle each new server answer once
  useEffect(() => {
    if (result?.status !== "invalid") return;
    const serverErrors = serverErrorsOf(result);
    setErrors(serverErrors);
    const first = steps.findIndex((key) => fieldsOf(key).some((name) => serverErrors[name]));
    if (first === stepIndex) focusFirstError(serverErrors);
    else if (first >= 0) goTo(first);
    // No field to go to: the message, rather than the page's top (the disabled submit dropped focus).
    else formErrorRef.current?.focus();
    if (result.formError) toast({ title: "Error", description: result.formError, variant: "destructive" });
  }, [result]);

  /** Shows a step, as a new history entry. */
  function goTo(index: number) {
    movedByUser.current = true;
    setStepIndex(index);
    if (hydrated && stepInHistory !== index) setEntryToAdd({ index, from: stepIndex });
  }

  // The entry waits until the router is idle: pushed while a submission's answer is still loading the
  // page's data, it would cancel that load.
  const [entryToAdd, setEntryToAdd] = useState<{ index: number; from: number } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: adds each entry once, when it can
  useEffect(() => {
    if (!entryToAdd || navigation.state !== "idle") return;
    setEntryToAdd(null);
    if (stepInHistory === entryToAdd.index) return;
    const options = { preventScrollReset: true, state: { wizardFrom: entryToAdd.from } };
    const to = entryOf(steps[entryToAdd.index]);
    // An entry of another hash (the skip link's) becomes the step's.
    if (location.hash && stepInHistory < 0) {
      navigate(to, { ...options, replace: true });
      return;
    }
    // The page's first entry has no hash yet: it takes its step's, so that Back to it is a hash change.
    if (stepInHistory < 0) {
      navigate(entryOf(steps[entryToAdd.from]), {
        replace: true,
        preventScrollReset: true,
        state: location.state,
      });
    }
    navigate(to, options);
  }, [entryToAdd, navigation.state]);

  const goingBack = useRef(false);
  function onBack() {
    if (!cameFromPreviousStep) return goTo(stepIndex - 1);
    // Once: a second press before the first lands would go back two entries.
    if (goingBack.current) return;
    goingBack.current = true;
    navigate(-1);
  }

  // Back or Forward while the application is on its way ends the wait for its answer (the router
  // drops it). The form stays as typed (the page's data is not reloaded for a step), and the person is
  // told the outcome is unknown. A new navigation without a form is the sign.
  const wasBusy = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: when a send ends
  useEffect(() => {
    if (busy || !wasBusy.current) {
      wasBusy.current = busy;
      return;
    }
    wasBusy.current = false;
    if (navigation.state === "idle" || navigation.formMethod) return;
    toast({
      title: "Application not confirmed",
      description: `You went back before the answer came, so we can't tell whether it was received. ${sendAgainToKnow(signedInAs !== null)}`,
      variant: "destructive",
    });
  }, [busy]);

  // Back and Forward follow the entries' steps. Forward may pass a step changed since: sending checks
  // every step again. A page load starts at the first step, whatever its hash: the password is never kept.
  const historyChecked = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the history entry, by design
  useEffect(() => {
    goingBack.current = false;
    if (!hydrated) return;
    if (!historyChecked.current) {
      historyChecked.current = true;
      const named = location.hash.slice(1);
      if (named in STEPS && named !== steps[0]) {
        navigate(entryOf(steps[0]), { replace: true, preventScrollReset: true });
      }
      return;
    }
    // Another hash (the skip link's) is not a step.
    if (navigationType !== "POP" || stepInHistory < 0 || stepInHistory === stepIndex) return;
    movedByUser.current = true;
    setStepIndex(stepInHistory);
  }, [hydrated, location.key]);

  /** Focuses the first field with an error, in the order the fields appear on screen. */
  function focusFirstError(found: Errors) {
    const controls = Array.from(formRef.current?.elements ?? []) as HTMLInputElement[];
    controls.find((control) => control.name && found[control.name])?.focus();
  }

  function onContinue() {
    const form = formRef.current;
    if (!form) return;
    const found = validateStep(step, form);
    setErrors((current) => {
      const next = { ...current };
      for (const name of fieldsOf(step)) delete next[name];
      return { ...next, ...found };
    });
    if (Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    goTo(stepIndex + 1);
  }

  /** Once a field has an error, it is checked again as the person corrects it. */
  function onFormChange(event: FormEvent<HTMLFormElement>) {
    // Read once React has settled the change (a refused fourth chip is unchecked again by then).
    const form = event.currentTarget;
    requestAnimationFrame(() => setTyped(new FormData(form)));
    const name = (event.target as HTMLInputElement).name;
    if (!name || !errors[name]) return;
    const owner = steps.find((key) => fieldsOf(key).includes(name));
    if (!owner) return;
    const found = validateStep(owner, event.currentTarget);
    setErrors((current) => {
      const next = { ...current };
      if (found[name]) next[name] = found[name];
      else delete next[name];
      return next;
    });
  }

  /** Enter in a text field moves on, as Continue does; on the last step it sends the form. */
  function onFormKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    const field = event.target;
    if (event.key !== "Enter" || event.nativeEvent.isComposing || !hydrated || isLast) return;
    if (!(field instanceof HTMLInputElement) || !TEXT_INPUT_TYPES.has(field.type)) return;
    event.preventDefault();
    onContinue();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const found: Errors = {};
    for (const key of steps) Object.assign(found, validateStep(key, form));
    if (Object.keys(found).length === 0) return; // Remix's <Form> sends it.
    event.preventDefault();
    setErrors(found);
    const first = steps.findIndex((key) => fieldsOf(key).some((name) => found[name]));
    // On the step with the error, focus goes to the field; on another step, to that step's heading.
    if (first === stepIndex) focusFirstError(found);
    else goTo(first);
  }

  if (result?.status === "created")
    return <Outcome kind="created" notices={result.notices} to={result.redirectTo} />;
  if (result?.status === "partial") return <Outcome kind="partial" notices={[]} to={result.redirectTo} />;
  if (result?.status === "already-expert")
    return <Outcome kind="already" notices={[]} to="/expert/dashboard" />;

  const showAll = !hydrated; // Without JavaScript every step is shown, in order, in one form.
  const isLast = stepIndex === steps.length - 1;
  const e = (name: string) => errors[name];

  return (
    <section className="card wizard" aria-labelledby="wizard-step-title">
      {signedInAs !== null ? (
        <p className="notice notice--success wizard__signed-in">
          Signed in as <strong>{signedInAs}</strong>
        </p>
      ) : null}
      <ol className="wizard-steps" aria-label="Application steps">
        {steps.map((key, index) => (
          <li
            key={key}
            className="wizard-steps__item"
            data-state={index < stepIndex ? "done" : index === stepIndex ? "current" : "todo"}
            aria-current={index === stepIndex ? "step" : undefined}
          >
            <span className="wizard-steps__number" aria-hidden="true">
              {index < stepIndex ? "✓" : index + 1}
            </span>
            <span className="wizard-steps__label">
              <span className="visually-hidden">
                Step {index + 1} of {steps.length}:{" "}
              </span>
              {STEPS[key].label}
            </span>
          </li>
        ))}
      </ol>
      <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        {showAll ? "Your application" : STEPS[step].label}
      </h2>
      {result?.status === "invalid" && result.formError ? (
        <p className="form-error" role="alert" ref={formErrorRef} tabIndex={-1}>
          {result.formError}{" "}
          {result.sessionEnded ? (
            <a href="/auth" target="_blank" rel="noopener">
              Sign in (opens a new tab)
            </a>
          ) : null}
        </p>
      ) : null}
      <Form
        ref={formRef}
        id="expert-application"
        method="post"
        encType="multipart/form-data"
        noValidate
        // The entry the submission replaces keeps its step's hash and where it came from.
        action={`${location.search}#${step}`}
        state={location.state}
        className="stack"
        onChange={onFormChange}
        onSubmit={onSubmit}
        onKeyDown={onFormKeyDown}
      >
        {signedInAs !== null ? <input type="hidden" name={SIGNED_IN_FIELD} value="1" /> : null}
        {steps.includes("account") ? (
          <fieldset className="wizard__step stack" hidden={!showAll && step !== "account"}>
            <legend className="visually-hidden">Account</legend>
            <div className="form-grid">
              <Field
                label="First Name"
                inputProps={{
                  name: "firstName",
                  required: "firstName" in REQUIRED,
                  defaultValue: sentText("firstName"),
                  autoComplete: "given-name",
                }}
                errors={e("firstName")}
              />
              <Field
                label="Last Name"
                inputProps={{
                  name: "lastName",
                  required: "lastName" in REQUIRED,
                  defaultValue: sentText("lastName"),
                  autoComplete: "family-name",
                }}
                errors={e("lastName")}
              />
            </div>
            <Field
              label="Username"
              inputProps={{
                name: "username",
                required: "username" in REQUIRED,
                defaultValue: sentText("username"),
                autoComplete: "username",
              }}
              errors={e("username")}
            />
            <Field
              label="Email"
              inputProps={{
                name: "email",
                required: "email" in REQUIRED,
                defaultValue: sentText("email"),
                type: "email",
                autoComplete: "email",
              }}
              errors={e("email")}
            />
            <Field
              label="Password"
              hint="At least 6 characters."
              inputProps={{
                name: "password",
                required: "password" in REQUIRED,
                type: "password",
                autoComplete: "new-password",
              }}
              errors={e("password")}
            />
            <p className="hint wizard__privacy">
              Your name is shown on your public profile. Your email is only used for notifications and account
              purposes; it is never shown to clients.
            </p>
          </fieldset>
        ) : null}

        <fieldset className="wizard__step stack" hidden={!showAll && step !== "profile"}>
          <legend className="visually-hidden">Profile</legend>
          <ImagePicker
            name="profileImage"
            label="Profile Picture"
            hint="JPEG, PNG, WebP or GIF, up to 5 MB. 400 x 400 recommended."
            shape="square"
          />
          <ImagePicker
            name="headerImage"
            label="Header Image"
            hint="JPEG, PNG, WebP or GIF, up to 5 MB. 1200 x 300 recommended."
            shape="banner"
          />
          <Field
            label="Professional Title"
            inputProps={{
              name: "title",
              required: "title" in REQUIRED,
              defaultValue: sentText("title"),
              maxLength: EXPERT_LIMITS.textMaxLength,
              placeholder: "e.g. Growth Marketing Consultant",
            }}
            errors={e("title")}
          />
          <Field
            label="Company/Organization"
            inputProps={{
              name: "occupation",
              required: "occupation" in REQUIRED,
              defaultValue: sentText("occupation"),
              maxLength: EXPERT_LIMITS.textMaxLength,
              autoComplete: "organization",
            }}
            errors={e("occupation")}
          />
          <PrefixedField
            label="Custom URL"
            prefix={siteAddress}
            hint="Letters, numbers, underscores and hyphens. Leave empty to use your expert number."
            inputProps={{
              name: "customUrl",
              required: "customUrl" in REQUIRED,
              value: customUrl,
              autoCapitalize: "none",
              autoCorrect: "off",
              spellCheck: false,
              maxLength: EXPERT_LIMITS.customUrlMaxLength,
              onChange: (event) =>
                setCustomUrl(filterCustomUrlInput(event.currentTarget.value, { allowUnderscore: true })),
            }}
            errors={e("customUrl")}
          />
          <SelectField
            label="Primary Category"
            placeholder="Select a category"
            hint="More categories can be added later."
            options={categories.map((category) => ({ value: String(category.id), label: category.name }))}
            selectProps={{
              name: "categoryId",
              required: "categoryId" in REQUIRED,
              value: categoryId,
              onChange: (event) => {
                const value = event.currentTarget.value;
                setCategoryId(value);
                const chosen = categories.find((category) => String(category.id) === value);
                if (chosen && expertise.length === 0) setExpertise([chosen.name]);
              },
            }}
            errors={e("categoryId")}
          />
          <ExpertisePicker
            categories={categories}
            selected={expertise}
            onChange={setExpertise}
            errors={e("expertise")}
          />
          <TextareaField
            label="Bio"
            hint={`${bio.trim().length} / ${EXPERT_LIMITS.bioMaxLength} characters (at least ${EXPERT_LIMITS.signupBioMinLength}).`}
            inputProps={{
              name: "bio",
              required: "bio" in REQUIRED,
              value: bio,
              rows: 6,
              maxLength: EXPERT_LIMITS.bioMaxLength,
              placeholder: "Who you help, what you've done, and what clients can expect from you.",
              onChange: (event) => setBio(event.currentTarget.value),
            }}
            errors={e("bio")}
          />
        </fieldset>

        <fieldset className="wizard__step stack" hidden={!showAll && step !== "pricing"}>
          <legend className="visually-hidden">Pricing</legend>
          <div className="form-grid">
            <PrefixedField
              label="Question Rate (USD)"
              prefix="$"
              hint="What a client pays for one answered question. At least $5."
              inputProps={{
                name: "questionRate",
                required: "questionRate" in REQUIRED,
                inputMode: "decimal",
                defaultValue: sentText("questionRate") ?? String(EXPERT_LIMITS.defaultQuestionRateDollars),
              }}
              errors={e("questionRate")}
            />
            <PrefixedField
              label="Session Price (USD)"
              prefix="$"
              hint="What a client pays for a 60-minute session. At least $30."
              inputProps={{
                name: "sessionPrice",
                required: "sessionPrice" in REQUIRED,
                inputMode: "decimal",
                defaultValue: sentText("sessionPrice") ?? String(EXPERT_LIMITS.defaultSessionPriceDollars),
              }}
              errors={e("sessionPrice")}
            />
          </div>
          {timeZone ? <input type="hidden" name="timeZone" value={timeZone} /> : null}
          <p className="hint">
            Clients can book sessions in your weekly hours: Monday to Friday, 9:00 AM to 6:00 PM to start
            with, in{" "}
            {timeZone
              ? `your browser's time zone, ${timeZoneLabel(timeZone)}.`
              : "UTC (your time zone can't be detected without JavaScript)."}{" "}
            You can change the hours and the time zone under Availability in your expert portal.
          </p>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                name="termsAgreed"
                required
                defaultChecked={sent.termsAgreed !== undefined}
                aria-invalid={Boolean(e("termsAgreed")) || undefined}
                aria-describedby="termsAgreed-error"
              />
              <span className="label--required">
                I agree to the{" "}
                <Link to="/terms-of-service" target="_blank" rel="noreferrer">
                  terms and conditions
                </Link>
              </span>
            </label>
            <ErrorList id="termsAgreed-error" errors={e("termsAgreed")} />
          </div>
          <ul className="marketing-cards" aria-label="Why experts join">
            <li className="marketing-card">
              <h3>Share Your Knowledge</h3>
              <p>Answer the questions founders are stuck on, in writing or by voice, on your own schedule.</p>
            </li>
            <li className="marketing-card">
              <h3>Build Your Brand</h3>
              <p>A public profile with your own address, reviews and the answers you're proud of.</p>
            </li>
            <li className="marketing-card">
              <h3>Earn Income</h3>
              <p>You set your question rate and session price; payments are handled for you.</p>
            </li>
          </ul>
        </fieldset>

        <div className="wizard__actions">
          {hydrated && stepIndex > 0 ? (
            <Button variant="secondary" onClick={onBack} disabled={busy}>
              Back
            </Button>
          ) : (
            <span />
          )}
          {/* Distinct keys: the click on Continue must not land on a submit button rendered in its place. */}
          {hydrated && !isLast ? (
            <Button key="continue" onClick={onContinue}>
              Continue
            </Button>
          ) : (
            <Button key="submit" type="submit" disabled={busy}>
              {busy ? "Creating Profile..." : "Create Expert Profile"}
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}

/** After the submission: created, partial success or already an expert; then the 1.5 s redirect. */
function Outcome({
  kind,
  notices,
  to,
}: {
  kind: "created" | "partial" | "already";
  notices: SignupNotice[];
  to: string;
}) {
  useRedirectAfter(to);
  // biome-ignore lint/correctness/useExhaustiveDependencies: announce once, when the outcome arrives
  useEffect(() => {
    if (kind === "partial") toast(PARTIAL_SUCCESS_NOTICE);
    else if (kind === "created" && notices.length > 0) {
      // One toast at a time (SPEC.md): one for all the images that failed.
      toast({
        title: notices.length === 1 ? notices[0].title : "Image Upload Failed",
        description: notices.map((notice) => notice.description).join(" "),
        variant: "destructive",
      });
    } else if (kind === "created") toast(PROFILE_CREATED_NOTICE);
  }, []);
  const heading =
    kind === "created"
      ? "Your expert profile is ready"
      : kind === "partial"
        ? "Partial Success"
        : "You're already an expert";
  const text =
    kind === "created"
      ? "Taking you to your dashboard..."
      : kind === "partial"
        ? PARTIAL_SUCCESS_NOTICE.description
        : "You already have an expert profile. Taking you to your dashboard...";
  return (
    <section
      className={cx(
        "card stack become-expert__status",
        kind === "partial" && "become-expert__status--warning",
      )}
      role="status"
    >
      <h2>{heading}</h2>
      <p>{text}</p>
      {notices.map((notice) => (
        <div key={notice.title} className="notice notice--danger">
          <strong>{notice.title}</strong>
          <p className="become-expert__notice-text">{notice.description}</p>
        </div>
      ))}
      <p>
        <Link to={to}>{to === "/" ? "Go to the home page" : "Go to Expert Dashboard"}</Link>
      </p>
    </section>
  );
}
