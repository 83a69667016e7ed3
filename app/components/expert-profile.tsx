import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { ExpertAvatar } from "~/components/expert-avatar";
import { TopExpertBadge, VerifiedBadge } from "~/components/expert-card";
import { FavoriteButton } from "~/components/favorite-button";
import { absoluteUrl, seo, summarize } from "~/components/seo";
import { StarRating } from "~/components/star-rating";
import { buttonClass } from "~/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { type ExpertProfileData, expertProfilePath } from "~/lib/experts";
import { formatCents } from "~/lib/money";
import { formatUtcDate } from "~/lib/utc-dates";

export type ProfileViewData = {
  origin: string;
  canonicalPath: string;
  expert: ExpertProfileData;
  signedIn: boolean;
  favorited: boolean;
  initialTab: "about" | "qa";
};

/**
 * Title, description, one canonical address (whichever of the four paths was used), sharing cards
 * with the expert's photo, and schema.org ProfilePage/Person structured data.
 */
export function profileMeta(data: ProfileViewData | undefined) {
  if (!data) return seo("Expert Not Found", "We couldn't find that expert.");
  const { expert, origin } = data;
  const canonical = absoluteUrl(origin, expertProfilePath(expert));
  const role = [expert.title, expert.company].filter(Boolean).join(" at ");
  const description = summarize(
    `${expert.name}${role ? `, ${role}` : ""}. ${expert.bio || "Ask a question or book a session."}`,
  );
  const image = expert.profileImage ? absoluteUrl(origin, expert.profileImage) : null;
  // The header image is the page's largest paint on a phone, and a CSS background is found late:
  // ask for it with the document.
  const preloads = expert.headerImage
    ? [{ tagName: "link" as const, rel: "preload", as: "image", href: encodeURI(expert.headerImage) }]
    : [];
  const tags = seo(`${expert.name}${expert.title ? `, ${expert.title}` : ""}`, description, {
    canonical,
    image,
    type: "profile",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "ProfilePage",
      url: canonical,
      mainEntity: {
        "@type": "Person",
        name: expert.name,
        url: canonical,
        ...(expert.title ? { jobTitle: expert.title } : {}),
        ...(expert.bio ? { description: expert.bio } : {}),
        ...(image ? { image } : {}),
        ...(expert.company ? { worksFor: { "@type": "Organization", name: expert.company } } : {}),
        ...(expert.location
          ? { address: { "@type": "PostalAddress", addressLocality: expert.location } }
          : {}),
        ...(expert.categories.length
          ? { knowsAbout: expert.categories.map((category) => category.name) }
          : {}),
      },
    },
  });
  return [...tags, ...preloads];
}

function BackButton() {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Link
      to="/experts"
      className={buttonClass({ variant: "ghost", size: "sm", className: "profile__back" })}
      onClick={(event) => {
        // Came here from another page of the app: go back to it (its filters and scroll position).
        if (location.key !== "default") {
          event.preventDefault();
          navigate(-1);
        }
      }}
    >
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
        <path d="M12.5 4l-6 6 6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      Back
    </Link>
  );
}

function ProfileActions({ expert, compact = false }: { expert: ExpertProfileData; compact?: boolean }) {
  return (
    <div className={compact ? "profile-actions profile-actions--compact" : "profile-actions"}>
      <Link to={`/ask/${expert.id}`} className={buttonClass({ size: compact ? "md" : "lg", block: compact })}>
        Ask a Question <span className="profile-actions__price">{formatCents(expert.questionRate)}</span>
      </Link>
      {expert.isAvailable ? (
        <Link
          to={`/book/${expert.id}`}
          className={buttonClass({ variant: "secondary", size: compact ? "md" : "lg", block: compact })}
        >
          Book Session <span className="profile-actions__price">{formatCents(expert.sessionPrice)}</span>
        </Link>
      ) : compact ? null : (
        <p className="muted profile-actions__note">Not taking new bookings right now.</p>
      )}
    </div>
  );
}

/** The public expert profile (SPEC.md "Public expert profile"). */
export function ExpertProfile({ view }: { view: ProfileViewData }) {
  const { expert } = view;
  const hasAnswers = expert.answers.length > 0;
  const [tab, setTab] = useState<string>(hasAnswers ? view.initialTab : "about");
  const place = [expert.company, expert.location].filter(Boolean);

  return (
    <article className="profile" aria-labelledby="profile-name">
      <div
        className="profile__header"
        style={
          expert.headerImage ? { backgroundImage: `url("${encodeURI(expert.headerImage)}")` } : undefined
        }
        aria-hidden="true"
      />
      <div className="container profile__layout">
        <BackButton />
        <section className="profile__card card">
          <div className="profile__top">
            <ExpertAvatar
              src={expert.profileImage}
              name={expert.name}
              size="xl"
              eager
              className="profile__avatar"
            />
            <FavoriteButton
              expertName={expert.name}
              favorited={view.favorited}
              signedIn={view.signedIn}
              className="profile__favorite"
            />
          </div>
          <div className="profile__identity">
            <h1 id="profile-name" className="profile__name">
              {expert.name}
            </h1>
            {expert.isVerified ? <VerifiedBadge label="Verified Expert" /> : null}
          </div>
          {expert.title ? <p className="profile__title">{expert.title}</p> : null}
          {place.length > 0 ? (
            <p className="profile__place muted">
              {expert.company ? <span>{expert.company}</span> : null}
              {expert.company && expert.location ? <span aria-hidden="true"> · </span> : null}
              {expert.location ? <span>{expert.location}</span> : null}
            </p>
          ) : null}
          <div className="profile__badges">
            {expert.isTopExpert ? <TopExpertBadge /> : null}
            {expert.categories.map((category) => (
              <Link key={category.slug} to={`/category/${category.slug}`} className="badge badge--category">
                {category.name}
              </Link>
            ))}
          </div>
          <dl className="profile__stats">
            <div>
              <dt>Rating</dt>
              <dd>
                <StarRating rating={expert.rating} reviewCount={expert.reviewCount} countStyle="long" />
              </dd>
            </div>
            <div>
              <dt>Questions answered</dt>
              <dd className="profile__answered">{expert.answeredCount}</dd>
            </div>
          </dl>
          <ProfileActions expert={expert} />
        </section>

        <section className="profile__content card" aria-label="About and answers">
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList aria-label="Profile sections">
              <TabsTrigger value="about">About</TabsTrigger>
              {hasAnswers ? <TabsTrigger value="qa">{`Q&A (${expert.answers.length})`}</TabsTrigger> : null}
            </TabsList>
            <TabsContent value="about" className="profile__about prose">
              <h2>{`About ${expert.name.split(" ")[0]}`}</h2>
              {expert.bio ? (
                <p className="profile__bio">{expert.bio}</p>
              ) : (
                <p className="muted">No bio yet.</p>
              )}
              {expert.consultingTopics ? (
                <>
                  <h3>What I'm qualified to consult on</h3>
                  <p>{expert.consultingTopics}</p>
                </>
              ) : null}
              {expert.expertise.length > 0 ? (
                <>
                  <h3>Expertise</h3>
                  <ul className="tag-list">
                    {expert.expertise.map((tag) => (
                      <li key={tag} className="tag">
                        {tag}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {expert.qualifications ? (
                <>
                  <h3>Qualifications</h3>
                  <p>{expert.qualifications}</p>
                </>
              ) : null}
            </TabsContent>
            {hasAnswers ? (
              <TabsContent value="qa">
                <h2 className="visually-hidden">Answered questions</h2>
                <ol className="answers plain-list">
                  {expert.answers.map((answer) => (
                    <li key={answer.id} className="answer">
                      <h3 className="answer__question">{answer.question}</h3>
                      <p className="answer__text">{answer.answer}</p>
                      {answer.answeredAt ? (
                        <p className="answer__date muted">{`Answered ${formatUtcDate(answer.answeredAt)}`}</p>
                      ) : null}
                    </li>
                  ))}
                </ol>
              </TabsContent>
            ) : null}
          </Tabs>
        </section>
      </div>
      <section className="profile__bottom-bar" aria-label="Ask or book">
        <ProfileActions expert={expert} compact />
      </section>
    </article>
  );
}
