import { type ActionFunctionArgs, data, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { clientAddress } from "~/auth/authenticator.server";
import { safeRedirect } from "~/auth/redirect";
import { NewsletterForm } from "~/components/newsletter-form";
import { seo } from "~/components/seo";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { readForm } from "~/lib/form-data.server";
import { cutText } from "~/lib/input-text";
import { subscribeToNewsletter, unsubscribeFromNewsletter } from "~/models/newsletter.server";
import { RATE_LIMITED_MESSAGE, withinRateLimit } from "~/models/rate-limits.server";
import {
  NEWSLETTER_EMAIL_MESSAGE,
  NEWSLETTER_MESSAGES,
  type NewsletterResult,
  NewsletterSchema,
} from "~/schemas/newsletter";
import { redirectWithToast } from "~/services/flash.server";

export const meta: MetaFunction = () =>
  seo("Newsletter", "Subscribe to the Expert Answers newsletter for expert tips and new experts.");

/**
 * The footer's newsletter box posts here. A fetcher (mode=fetch) gets the result inline; a plain
 * form post (no JavaScript) is sent back where it came from with a flash toast, or sees this page
 * with the error. The page's own form unsubscribes (intent=unsubscribe).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent") === "unsubscribe" ? "unsubscribe" : "subscribe";
  const email = formData.get("email");
  // Sent back with a refusal, so a page posted without JavaScript shows what was typed.
  const typed = typeof email === "string" ? cutText(email, 254) : "";
  const parsed = NewsletterSchema.safeParse({ email: typeof email === "string" ? email : undefined });
  if (!parsed.success) {
    return data<NewsletterResult>(
      { ok: false, intent, error: NEWSLETTER_EMAIL_MESSAGE, email: typed },
      { status: 400 },
    );
  }
  const db = context.primaryDb;
  if (!(await withinRateLimit(db, "newsletter", clientAddress(request), context.now()))) {
    return data<NewsletterResult>(
      { ok: false, intent, error: RATE_LIMITED_MESSAGE, email: typed },
      { status: 429 },
    );
  }
  if (intent === "unsubscribe") await unsubscribeFromNewsletter(db, parsed.data);
  else await subscribeToNewsletter(db, parsed.data);
  const result: NewsletterResult = { ok: true, intent, message: NEWSLETTER_MESSAGES[intent] };
  if (intent === "subscribe" && formData.get("mode") !== "fetch") {
    return redirectWithToast(
      safeRedirect(formData.get("redirectTo"), "/"),
      { title: "Subscribed", description: result.message },
      { status: 303 },
    );
  }
  return result;
}

export default function Newsletter() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="container stack-lg">
      <header className="page-header">
        <span className="eyebrow">Newsletter</span>
        <h1>Subscribe to our newsletter</h1>
        <p>Expert tips, new experts and product news, about once a month. Unsubscribe any time.</p>
      </header>
      <section className="card prose" aria-label="Newsletter sign-up">
        <NewsletterForm
          variant="page"
          initialResult={actionData?.intent === "subscribe" ? actionData : undefined}
        />
      </section>
      <UnsubscribeForm result={actionData?.intent === "unsubscribe" ? actionData : undefined} />
    </div>
  );
}

function UnsubscribeForm({ result }: { result?: NewsletterResult }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "unsubscribe";
  const error = result && !result.ok ? [result.error] : undefined;
  return (
    <section id="unsubscribe" className="card stack" aria-labelledby="unsubscribe-title">
      <h2 id="unsubscribe-title">Unsubscribe</h2>
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="unsubscribe" />
        <Field
          label="Email address to remove"
          inputProps={{
            name: "email",
            type: "email",
            autoComplete: "email",
            maxLength: 254,
            defaultValue: result && !result.ok ? result.email : undefined,
          }}
          errors={error}
        />
        <div>
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Unsubscribing..." : "Unsubscribe"}
          </Button>
        </div>
        <p role="status" className="newsletter__message" data-tone={result?.ok ? "success" : undefined}>
          {result?.ok ? result.message : ""}
        </p>
      </Form>
    </section>
  );
}
