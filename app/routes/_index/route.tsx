import type { HeadersArgs, LoaderFunctionArgs, MetaArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { CategoryCarousel } from "~/components/category-carousel";
import { ExpertGrid } from "~/components/expert-card";
import { seo } from "~/components/seo";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "~/components/ui/accordion";
import { buttonClass } from "~/components/ui/button";
import { siteOrigin } from "~/config.server";
import type { ExpertCardData } from "~/lib/experts";
import { publicPageHeaders } from "~/services/cache.server";
import { readCategories, readFeaturedExperts } from "~/services/read-models.server";
import discoveryStyles from "~/styles/discovery.css";
import { FAQ, HERO_CLAIMS, HOW_IT_WORKS, TESTIMONIALS } from "./content";

export const links = () => [{ rel: "stylesheet", href: discoveryStyles }];

export const meta = ({ data }: MetaArgs<typeof loader>) =>
  seo(
    "On-Demand Expert Q&A",
    "Get expert answers within 24 hours: ask a verified professional a question, book a 60-minute session or subscribe.",
    {
      exact: true,
      canonical: data ? `${data.origin}/` : undefined,
      // The FAQ's answers are in collapsed panels: give search engines the whole text as well.
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: FAQ.map((item) => ({
          "@type": "Question",
          name: item.question,
          acceptedAnswer: { "@type": "Answer", text: item.answer },
        })),
      },
    },
  );

export const headers = ({ loaderHeaders }: HeadersArgs) => loaderHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  // In-app navigations (the browser's fetch of the page data) show the page at once and stream the
  // featured experts in behind a skeleton. A document request waits for them, so the HTML (what the
  // edge cache keeps, crawlers read and browsers without JavaScript show) is complete.
  const streamed = request.headers.get("Sec-Fetch-Dest") === "empty";
  const featuredPromise = readFeaturedExperts(context);
  const [categories, featured] = await Promise.all([
    readCategories(context),
    streamed ? null : featuredPromise,
  ]);
  return data(
    { origin: siteOrigin(context.config, request), categories, featured: featured ?? featuredPromise },
    { headers: publicPageHeaders(request) },
  );
}

export default function Home() {
  const { categories, featured } = useLoaderData<typeof loader>();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <div className="hero__copy">
            <span className="eyebrow hero__eyebrow">Verified experts, on demand</span>
            <h1 id="hero-title">On-Demand Expert Q&A</h1>
            <p className="hero__lead">
              Ask a verified professional anything about starting, funding and growing a business, and get a
              personalised answer within 24 hours. Most answers arrive within 12.
            </p>
            <div className="cluster">
              <Link to="/ask" className={buttonClass({ size: "lg" })}>
                Ask an Expert
              </Link>
              <Link to="/experts" className={buttonClass({ variant: "secondary", size: "lg" })}>
                Browse Experts
              </Link>
            </div>
          </div>
          <ul className="hero__claims plain-list" aria-label="At a glance">
            {HERO_CLAIMS.map((claim) => (
              <li key={claim.label} className="hero__claim">
                <strong>{claim.value}</strong>
                <span>{claim.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <div className="container">
        <section className="section home-section" aria-labelledby="categories">
          <div className="section-head">
            <div>
              <h2 id="categories">Browse by Category</h2>
              <p className="muted">Find experts in the area your question is about.</p>
            </div>
          </div>
          <CategoryCarousel categories={categories} />
        </section>

        <Suspense fallback={<FeaturedExperts experts={null} />}>
          <Await resolve={featured} errorElement={null}>
            {(experts) => <FeaturedExperts experts={experts} />}
          </Await>
        </Suspense>

        <section className="section home-section" aria-labelledby="how-it-works">
          <h2 id="how-it-works">How It Works</h2>
          <ol className="steps plain-list">
            {HOW_IT_WORKS.map((step, index) => (
              <li key={step.title} className="card step">
                <span className="step__number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{step.title}</h3>
                <p className="muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section className="section home-section" aria-labelledby="testimonials-title">
          <h2 id="testimonials-title">What Our Clients Say</h2>
          <ul className="testimonials plain-list">
            {TESTIMONIALS.map((testimonial) => (
              <li key={testimonial.name} className="card testimonial">
                <figure>
                  <span
                    className="testimonial__rating"
                    role="img"
                    aria-label={`Rated ${testimonial.rating} out of 5`}
                  >
                    {"★".repeat(testimonial.rating)}
                    <span className="testimonial__rating-empty">{"★".repeat(5 - testimonial.rating)}</span>
                  </span>
                  <blockquote>
                    <p>{testimonial.content}</p>
                  </blockquote>
                  <figcaption className="testimonial__author">
                    <span className="avatar avatar--sm avatar--initials" aria-hidden="true">
                      {testimonial.avatar}
                    </span>
                    <span>
                      <strong>{testimonial.name}</strong>
                      <span className="muted">{testimonial.role}</span>
                    </span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </section>

        <section className="section home-section faq" aria-labelledby="faq">
          <h2 id="faq">Frequently Asked Questions</h2>
          <Accordion>
            {FAQ.map((item) => (
              <AccordionItem key={item.id} value={item.id}>
                <AccordionTrigger>{item.question}</AccordionTrigger>
                <AccordionContent>{item.answer}</AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </section>
      </div>
    </div>
  );
}

/** Featured experts: a skeleton while they load (`experts` null), nothing at all when there are none. */
function FeaturedExperts({ experts }: { experts: ExpertCardData[] | null }) {
  if (experts !== null && experts.length === 0) return null;
  return (
    <section className="section home-section" aria-labelledby="featured-title">
      <div className="section-head">
        <div>
          <h2 id="featured-title">Featured Experts</h2>
          <p className="muted">Hand-picked professionals our clients rate highly.</p>
        </div>
        <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
          Browse All Experts
        </Link>
      </div>
      <ExpertGrid
        experts={experts ?? []}
        loading={experts === null}
        placeholders={4}
        label="Featured experts"
      />
    </section>
  );
}
