import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type ClientActionFunctionArgs, useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { requiredFields, useForm } from "~/components/use-form";
import { AccountProfileSchema, ChangePasswordSchema } from "~/schemas/auth";
import { keepFormWhenOffline } from "./keep-form-when-offline";
import { Button } from "./ui/button";
import { ConfirmDisclosure } from "./ui/confirm-disclosure";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from "./ui/dialog";
import { Field } from "./ui/field";
import { toast } from "./ui/toast";
import { useFocusFirstInvalid } from "./use-focus-first-invalid";
import { useHydrated } from "./use-hydrated";
import { useShowStoredAfterSave } from "./use-show-stored";
import { useUnsentChanges } from "./use-unsent-changes";

type AccountActionData = { intent: string | null; result: SubmissionResult<string[]> | null; ok: boolean };

/**
 * The answer to this part's last submission: the fetcher's, or without JavaScript (the form posted as
 * a page) the route's, so errors and what was typed come back either way.
 */
function useAccountResult(fetcher: { data?: AccountActionData }, intent: "profile" | "password") {
  const pageData = useActionData<AccountActionData>();
  const data = fetcher.data ?? pageData;
  return data?.intent === intent ? data : undefined;
}

/** True when this part was saved by a form posted as a page (no JavaScript): nothing else says so. */
function savedByPagePost(fetcher: { data?: AccountActionData }, result: AccountActionData | undefined) {
  return fetcher.data === undefined && result?.ok === true;
}

/**
 * Name and e-mail, password change, sign-out and account deletion (SPEC.md "Expert portal: Account").
 * Each part is its own form so one can fail without clearing the others.
 */
export function AccountSettings({
  userId,
  name,
  email,
  hasExpertProfile,
}: {
  userId: number;
  name: string;
  email: string;
  /** Closing the account also closes an expert's practice: the warning says what that does. */
  hasExpertProfile: boolean;
}) {
  return (
    <div className="stack-lg">
      <ProfileForm userId={userId} name={name} email={email} />
      <PasswordForm />
      <section className="card stack" aria-labelledby="session-heading">
        <h2 id="session-heading">Session</h2>
        <SignOutButton />
      </section>
      <DeleteAccount role={hasExpertProfile ? "expert" : "client"} />
    </div>
  );
}

function useFlag(active: boolean, ms: number) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) return;
    setShown(true);
    const timer = setTimeout(() => setShown(false), ms);
    return () => clearTimeout(timer);
  }, [active, ms]);
  return shown;
}

function ProfileForm({ userId, name, email }: { userId: number; name: string; email: string }) {
  const fetcher = useFetcher<AccountActionData>();
  const result = useAccountResult(fetcher, "profile");
  const formRef = useRef<HTMLFormElement>(null);
  const editedSinceSend = useUnsentChanges(`account-profile:${userId}`, formRef, fetcher);
  const [form, fields] = useForm({
    id: "account-profile",
    lastResult: result?.result,
    defaultValue: { name, email },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(AccountProfileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountProfileSchema }),
  });
  useFocusFirstInvalid(form.id, result?.result);
  // A name typed with spaces around it is stored trimmed.
  useShowStoredAfterSave(
    form,
    editedSinceSend,
    `${name}\n${email}`,
    fetcher.state === "idle" && result?.ok ? result : null,
  );
  const updated = useFlag(fetcher.state === "idle" && result?.ok === true, 3000);
  useEffect(() => {
    if (fetcher.state === "idle" && result?.ok === false) {
      toast({
        title: "Update failed",
        description: "Please check the highlighted fields.",
        variant: "destructive",
      });
    }
  }, [fetcher.state, result]);
  const busy = fetcher.state !== "idle";
  return (
    <section className="card stack" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <fetcher.Form ref={formRef} method="post" {...getFormProps(form)} className="stack">
        <input type="hidden" name="intent" value="profile" />
        <Field
          label="Full Name"
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
          errors={fields.name.errors}
        />
        <Field
          label="Email Address"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <div className="row">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save Changes"}
          </Button>
          <span role="status" className="success-text">
            {updated || savedByPagePost(fetcher, result) ? "Updated!" : ""}
          </span>
        </div>
      </fetcher.Form>
    </section>
  );
}

function PasswordForm() {
  const fetcher = useFetcher<AccountActionData>();
  const result = useAccountResult(fetcher, "password");
  const [form, fields] = useForm({
    id: "account-password",
    lastResult: result?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(ChangePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  });
  useFocusFirstInvalid(form.id, result?.result);
  useEffect(() => {
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok)
      toast({ title: "Password changed", description: "Your other sessions have been signed out." });
  }, [fetcher.state, result]);
  const busy = fetcher.state !== "idle";
  return (
    <section className="card stack" aria-labelledby="password-heading">
      <h2 id="password-heading">Change Password</h2>
      <fetcher.Form method="post" {...getFormProps(form)} className="stack">
        <input type="hidden" name="intent" value="password" />
        <Field
          label="Current Password"
          inputProps={{
            ...getInputProps(fields.currentPassword, { type: "password" }),
            autoComplete: "current-password",
          }}
          errors={fields.currentPassword.errors}
        />
        <Field
          label="New Password"
          hint="At least 8 characters."
          inputProps={{
            ...getInputProps(fields.newPassword, { type: "password" }),
            autoComplete: "new-password",
          }}
          errors={fields.newPassword.errors}
        />
        <Field
          label="Confirm New Password"
          inputProps={{
            ...getInputProps(fields.confirmPassword, { type: "password" }),
            autoComplete: "new-password",
          }}
          errors={fields.confirmPassword.errors}
        />
        <div className="row">
          <Button type="submit" disabled={busy}>
            {busy ? "Changing..." : "Change Password"}
          </Button>
          <span role="status" className="success-text">
            {savedByPagePost(fetcher, result)
              ? "Password changed. Your other sessions have been signed out."
              : ""}
          </span>
        </div>
      </fetcher.Form>
    </section>
  );
}

function SignOutButton() {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="logout" />
      <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
        Log Out
      </Button>
    </fetcher.Form>
  );
}

/**
 * The account routes' clientAction. A deletion or a password change whose answer was lost may already
 * be done, and sending it again would say "Your session has ended" or "Current password is incorrect"
 * (which a mistyped current password says too).
 */
export const keepAccountFormWhenOffline = (args: ClientActionFunctionArgs) =>
  keepFormWhenOffline(args, {
    outcomeUnknown: (sent) => {
      const intent = sent.get("intent");
      if (intent === "delete") {
        return "We couldn't tell whether your account was deleted. Check your connection, then reload this page: if you are still signed in, it was not.";
      }
      if (intent === "password") {
        return "We couldn't tell whether your password was changed. Check your connection, then sign in with your new password in a new tab: if that works, it was changed.";
      }
      return undefined;
    },
  });

const DELETE_WARNING =
  "This cannot be undone. Your account, favourites and notifications will be deleted and you will be signed out everywhere.";
/** What closing the account does to other people's questions and sessions, said before it is done. */
const CLOSES_WORK = {
  client:
    "Questions still waiting for an answer are withdrawn, and you are not charged for them. Sessions more than 24 hours away are cancelled and refunded in full; while a session is sooner than that, the account can be deleted only once it has ended. A subscription ends now.",
  expert:
    "Your public profile is removed. Questions waiting for your answer are declined, so those clients are not charged, and your upcoming sessions are cancelled and refunded in full. Each client is told.",
};

function DeleteAccount({ role }: { role: keyof typeof CLOSES_WORK }) {
  const warning = `${DELETE_WARNING} ${CLOSES_WORK[role]}`;
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const [open, setOpen] = useState(false);
  // A deletion leaves the page. A send that ends here was refused or lost its answer, which a toast
  // explains; the dialog closes so that its Delete is not pressed again beside it.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) setOpen(false);
    wasBusy.current = busy;
  }, [busy]);
  return (
    <section className="card stack danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete Account</h2>
      <p className="muted">
        This removes your account and personal details. Records of payments are kept, without your details, as
        the law requires.
      </p>
      {hydrated ? null : (
        <ConfirmDisclosure
          label="Delete Account"
          description={warning}
          confirmLabel="Delete"
          intent="delete"
        />
      )}
      <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
        {hydrated ? (
          <DialogTrigger asChild>
            <Button variant="danger">Delete Account</Button>
          </DialogTrigger>
        ) : null}
        <DialogContent dismissOnOutsideClick={false} hideClose>
          <DialogTitle>Are you absolutely sure?</DialogTitle>
          <DialogDescription>{warning}</DialogDescription>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary" disabled={busy}>
                Cancel
              </Button>
            </DialogClose>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? "Deleting..." : "Delete"}
              </Button>
            </fetcher.Form>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
