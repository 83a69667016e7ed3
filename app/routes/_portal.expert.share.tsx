import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { MouseEvent } from "react";
import { requireExpert } from "~/auth/guards.server";
import { CopyButton, copyText } from "~/components/copy-button";
import { buttonClass } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { siteOrigin } from "~/config.server";
import { publicProfilePath } from "~/lib/expert-urls";
import { getOwnExpertProfile } from "~/models/experts.server";
import portalHref from "~/styles/expert-portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalHref }];

export const meta: MetaFunction = () => [
  { title: "Share | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, expertId } = await requireExpert(context, request);
  if (expertId === null) return { share: null };
  const profile = await getOwnExpertProfile(context.db, { userId: user.id });
  if (!profile) return { share: null };
  const url = `${siteOrigin(context.config, request)}${publicProfilePath(profile)}`;
  const name = user.name ?? user.username;
  const topic = profile.expertise.length > 0 ? profile.expertise.join(", ") : (profile.title ?? "my field");
  const message = `I'm answering questions on Expert Answers! Ask me anything about ${topic}, or book a 1:1 session with me.`;
  const emailSubject = `Ask me your ${profile.expertise[0] ?? "business"} questions on Expert Answers`;
  const emailBody = [
    "Hi,",
    "",
    `I'm now on Expert Answers, where you can ask me a question about ${topic} and get a personal answer within 24 hours, or book a 60-minute 1:1 session with me.`,
    "",
    `My profile: ${url}`,
    "",
    "Best,",
    name,
  ].join("\n");
  return { share: { url, message, emailSubject, emailBody } };
}

/** Opens a share dialog in a small window; without JavaScript the link opens in a new tab. */
function openShareWindow(event: MouseEvent<HTMLAnchorElement>) {
  const opened = window.open(event.currentTarget.href, "_blank", "width=640,height=640");
  if (!opened) return; // Blocked: let the link open a new tab instead.
  opened.opener = null; // The shared site never gets a handle on this page.
  event.preventDefault();
}

export default function Share() {
  const { share } = useLoaderData<typeof loader>();
  if (!share) {
    return (
      <div className="stack-lg">
        <header className="page-header">
          <h1>Share Your Profile</h1>
        </header>
        <section className="card stack">
          <p>You have no expert profile to share yet.</p>
          <div>
            <Link to="/become-expert" className={buttonClass()}>
              Create your expert profile
            </Link>
          </div>
        </section>
      </div>
    );
  }
  const encodedUrl = encodeURIComponent(share.url);
  const twitter = `https://twitter.com/intent/tweet?text=${encodeURIComponent(share.message)}&url=${encodedUrl}`;
  const facebook = `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`;
  const linkedIn = `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}`;
  const mailto = `mailto:?subject=${encodeURIComponent(share.emailSubject)}&body=${encodeURIComponent(share.emailBody)}`;
  const fullMessage = `${share.message} ${share.url}`;

  return (
    <div className="stack-lg">
      <header className="page-header">
        <h1>Share Your Profile</h1>
        <p>
          Bring your own audience: every client who finds you through your link can ask or book right away.
        </p>
      </header>

      <section className="card stack" aria-labelledby="link-title">
        <h2 id="link-title">Your profile link</h2>
        <div className="copy-row">
          <Label htmlFor="profile-link" className="visually-hidden">
            Profile link
          </Label>
          <Input
            id="profile-link"
            value={share.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={share.url} hint="profile link" variant="primary" />
        </div>
      </section>

      <section className="card stack" aria-labelledby="social-title">
        <h2 id="social-title">Share on social media</h2>
        <div className="share-buttons">
          <a
            className="share-button share-button--twitter"
            href={twitter}
            target="_blank"
            rel="noopener noreferrer"
            onClick={openShareWindow}
          >
            Twitter <span className="visually-hidden">(opens in a new window)</span>
          </a>
          <a
            className="share-button share-button--facebook"
            href={facebook}
            target="_blank"
            rel="noopener noreferrer"
            onClick={openShareWindow}
          >
            Facebook <span className="visually-hidden">(opens in a new window)</span>
          </a>
          <a
            className="share-button share-button--linkedin"
            href={linkedIn}
            target="_blank"
            rel="noopener noreferrer"
            onClick={openShareWindow}
          >
            LinkedIn <span className="visually-hidden">(opens in a new window)</span>
          </a>
          <button
            type="button"
            className="share-button share-button--instagram"
            onClick={async () => {
              const copied = await copyText(share.url);
              toast(
                copied
                  ? {
                      title: "Link copied for Instagram",
                      description: "Instagram doesn't take shared links: paste it into your bio or a story.",
                    }
                  : {
                      title: "Copy failed",
                      description: "Please copy your link from the box above.",
                      variant: "destructive",
                    },
              );
            }}
          >
            Instagram
          </button>
        </div>
        <p className="hint share-note">
          Instagram has no share link for websites: the Instagram button copies your link for your bio or a
          story.
        </p>
      </section>

      <section className="card stack" aria-labelledby="message-title">
        <h2 id="message-title">Suggested message</h2>
        <Label htmlFor="share-message" className="visually-hidden">
          Suggested message
        </Label>
        <Textarea id="share-message" value={fullMessage} readOnly rows={4} />
        <div>
          <CopyButton text={fullMessage} label="Copy Message" hint="to share on social media" />
        </div>
      </section>

      <section className="card stack" aria-labelledby="email-title">
        <h2 id="email-title">Share by email</h2>
        <div className="field">
          <Label htmlFor="email-subject">Subject</Label>
          <Input id="email-subject" value={share.emailSubject} readOnly />
        </div>
        <div className="field">
          <Label htmlFor="email-body">Body</Label>
          <Textarea id="email-body" value={share.emailBody} readOnly rows={9} />
        </div>
        <div className="row">
          <a href={mailto} className={buttonClass()}>
            Open in Email Client
          </a>
          <CopyButton
            text={`Subject: ${share.emailSubject}\n\n${share.emailBody}`}
            label="Copy Email"
            hint="subject and body"
          />
        </div>
      </section>
    </div>
  );
}
