import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { asc } from "drizzle-orm";
import { seo } from "~/components/seo";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "~/components/ui/accordion";
import { buttonClass } from "~/components/ui/button";
import { categories } from "~/db/schema.server";

// Placeholder home: the discovery work replaces it (keep the section anchors the header links to).
export const meta: MetaFunction = () =>
  seo(
    "On-Demand Expert Q&A",
    "Get answers from verified experts within 24 hours: ask a question, book a session or subscribe.",
    { exact: true },
  );

export async function loader({ context }: LoaderFunctionArgs) {
  const rows = await context.db
    .select({ name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.displayOrder));
  return { categories: rows };
}

export default function Home() {
  const { categories } = useLoaderData<typeof loader>();
  return (
    <div className="container">
      <header className="page-header">
        <h1>On-Demand Expert Q&A</h1>
        <p>Get a personalised answer from a verified expert within 24 hours.</p>
        <div className="cluster">
          <Link to="/ask" className={buttonClass({ size: "lg" })}>
            Ask an Expert
          </Link>
          <Link to="/experts" className={buttonClass({ variant: "secondary", size: "lg" })}>
            Browse Experts
          </Link>
        </div>
      </header>

      <section id="categories" className="section" aria-labelledby="categories-title">
        <h2 id="categories-title">Categories</h2>
        <ul className="grid plain-list">
          {categories.map((c: { name: string; slug: string }) => (
            <li key={c.slug} className="card">
              <Link to={`/category/${c.slug}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </section>

      <section id="how-it-works" className="section" aria-labelledby="how-title">
        <h2 id="how-title">How It Works</h2>
        <p className="muted">Choose an expert, ask your question, and get your answer within 24 hours.</p>
      </section>

      <section id="faq" className="section" aria-labelledby="faq-title">
        <h2 id="faq-title">FAQ</h2>
        <Accordion>
          <AccordionItem value="time">
            <AccordionTrigger>How quickly will I get an answer?</AccordionTrigger>
            <AccordionContent>Within 24 hours; most answers arrive within 12 hours.</AccordionContent>
          </AccordionItem>
          <AccordionItem value="advice">
            <AccordionTrigger>Do experts give medical, legal or financial advice?</AccordionTrigger>
            <AccordionContent>
              No. Advice that needs a licensed professional is not provided on Expert Answers.
            </AccordionContent>
          </AccordionItem>
        </Accordion>
      </section>
    </div>
  );
}
