import { type ActionFunctionArgs, data, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { safeRedirect } from "~/auth/redirect";
import { NewsletterForm } from "~/components/newsletter-form";
import { seo } from "~/components/seo";
import { readForm } from "~/lib/form-data.server";
import { subscribeToNewsletter } from "~/models/newsletter.server";
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
 * with the error.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const email = formData.get("email");
  const parsed = NewsletterSchema.safeParse({ email: typeof email === "string" ? email : undefined });
  if (!parsed.success) {
    return data<NewsletterResult>({ ok: false, error: NEWSLETTER_EMAIL_MESSAGE }, { status: 400 });
  }
  const status = await subscribeToNewsletter(context.db, parsed.data);
  const result: NewsletterResult = { ok: true, status, message: NEWSLETTER_MESSAGES[status] };
  if (formData.get("mode") !== "fetch") {
    return redirectWithToast(
      safeRedirect(formData.get("redirectTo"), "/"),
      { title: status === "subscribed" ? "Subscribed" : "Already subscribed", description: result.message },
      { status: 303 },
    );
  }
  return result;
}

export default function Newsletter() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="container">
      <header className="page-header">
        <span className="eyebrow">Newsletter</span>
        <h1>Subscribe to our newsletter</h1>
        <p>Expert tips, new experts and product news, about once a month. Unsubscribe any time.</p>
      </header>
      <section className="card prose" aria-label="Newsletter sign-up">
        <NewsletterForm variant="page" initialResult={actionData} />
      </section>
    </div>
  );
}
