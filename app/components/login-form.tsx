import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { type ReactNode, useState } from "react";
import { requiredFields, useForm } from "~/components/use-form";
import { LoginSchema } from "~/schemas/auth";
import { Button } from "./ui/button";
import { Field } from "./ui/field";
import { useFocusKeeper } from "./use-focus-keeper";

export type LoginFormHandle = { fill: (username: string, password: string) => void };

/**
 * Username and password, shared by every sign-in screen. Server errors ("Invalid username or
 * password", throttling) arrive as form errors under the title "Login failed".
 */
export function LoginForm({
  redirectTo,
  lastResult,
  id = "login",
  submitLabel = "Sign In",
  fixedUsername,
  children,
}: {
  redirectTo: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  id?: string;
  submitLabel?: string;
  /** Sign in as this user: the username is sent but not shown as a field. */
  fixedUsername?: string;
  /** Rendered below the fields, inside the form: e.g. the demo auto-fill button. */
  children?: (fill: LoginFormHandle["fill"]) => ReactNode;
}) {
  useFocusKeeper();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "login";
  const [form, fields] = useForm({
    id,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(LoginSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  // "Login failed" is about the pair: both fields read as invalid until the person edits either.
  const [editedSince, setEditedSince] = useState<typeof lastResult>(null);
  const failed = Boolean(form.errors) && editedSince !== lastResult;
  const fill = (username: string, password: string) => {
    form.update({ name: fields.username.name, value: username });
    form.update({ name: fields.password.name, value: password });
  };
  return (
    <Form method="post" {...getFormProps(form)} className="stack" onInput={() => setEditedSince(lastResult)}>
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {form.errors ? (
        <div className="form-error" role="alert" id={form.errorId}>
          <strong>Login failed</strong>
          <p>{form.errors.join(" ")}</p>
        </div>
      ) : null}
      {fixedUsername ? (
        <input type="hidden" name={fields.username.name} value={fixedUsername} />
      ) : (
        <Field
          label="Username"
          inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "username" }}
          errors={fields.username.errors}
          invalidBecause={failed ? form.errorId : undefined}
        />
      )}
      <Field
        label="Password"
        inputProps={{
          ...getInputProps(fields.password, { type: "password" }),
          autoComplete: "current-password",
        }}
        errors={fields.password.errors}
        invalidBecause={failed ? form.errorId : undefined}
      />
      <Button type="submit" disabled={busy} block>
        {busy ? "Signing in..." : submitLabel}
      </Button>
      {children?.(fill)}
    </Form>
  );
}
