import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { clientAddress } from "~/auth/authenticator.server";
import { getOptionalUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { pageSeo } from "~/components/page-seo";
import { Button } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import { ServerToast } from "~/components/ui/toast";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { requiredFields, useForm } from "~/components/use-form";
import { readForm } from "~/lib/form-data.server";
import { createContactMessage } from "~/models/contact.server";
import { RATE_LIMITED_MESSAGE, withinRateLimit } from "~/models/rate-limits.server";
import type { loader as rootLoader } from "~/root";
import { CONTACT_LIMITS, CONTACT_SENT_TOAST, ContactSchema } from "~/schemas/contact";
import { makeToast } from "~/services/flash.server";

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "Contact Us",
    "Questions about Expert Answers? Send us a message and we'll respond within 24-48 hours on business days.",
  );

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ContactSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), toast: null }, { status: 400 });
  }
  if (!(await withinRateLimit(context.primaryDb, "contact", clientAddress(request), context.now()))) {
    return data(
      { result: submission.reply({ formErrors: [RATE_LIMITED_MESSAGE] }), toast: null },
      { status: 429 },
    );
  }
  const user = await getOptionalUser(context, request);
  await createContactMessage(context.db, { ...submission.value, userId: user?.id ?? null });
  return { result: submission.reply({ resetForm: true }), toast: makeToast(CONTACT_SENT_TOAST) };
}

export const clientAction = keepFormWhenOffline;

export default function Contact() {
  const actionData = useActionData<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const supportEmail = root?.config.supportEmail ?? "support@expertanswers.example";
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/contact";
  // Sending disables Send: the keeper gives it the focus back once the message is sent.
  useFocusKeeper();
  const [form, fields] = useForm({
    id: "contact",
    lastResult: actionData?.result,
    constraint: requiredFields(ContactSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
  });

  return (
    <div className="container">
      <ServerToast toast={actionData?.toast} />
      <header className="page-header">
        <span className="eyebrow">Contact</span>
        <h1>Contact Us</h1>
        <p>Have a question about asking an expert, becoming one, or your account? Send us a message.</p>
      </header>
      <div className="two-col">
        <section className="card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">Send us a message</h2>
          <Form method="post" className="form" {...getFormProps(form)}>
            {form.errors ? (
              <p className="form-error" role="alert" id={form.errorId}>
                {form.errors.join(" ")}
              </p>
            ) : null}
            <Field
              label="Name"
              inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
              errors={fields.name.errors}
            />
            <Field
              label="Email"
              inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
              errors={fields.email.errors}
            />
            <Field
              label="Subject"
              inputProps={getInputProps(fields.subject, { type: "text" })}
              errors={fields.subject.errors}
            />
            <TextareaField
              label="Message"
              hint={`Up to ${CONTACT_LIMITS.message.toLocaleString("en-US")} characters.`}
              inputProps={{ ...getTextareaProps(fields.message), rows: 6 }}
              errors={fields.message.errors}
            />
            <div>
              <Button type="submit" disabled={busy}>
                {busy ? "Sending..." : "Send Message"}
              </Button>
            </div>
          </Form>
        </section>
        <aside className="card stack" aria-labelledby="contact-info-title">
          <h2 id="contact-info-title">Other ways to reach us</h2>
          <div>
            <h3>Email support</h3>
            <p>
              <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
            </p>
          </div>
          <div>
            <h3>Response time</h3>
            <p className="muted">We reply within 24-48 hours on business days.</p>
          </div>
          <div>
            <h3>Quick answers</h3>
            <p className="muted">
              Many questions are covered in our <Link to="/#faq">FAQ</Link>. Experts can read about{" "}
              <Link to="/become-expert">becoming an expert</Link>.
            </p>
          </div>
        </aside>
      </div>
    </div>
  );
}
