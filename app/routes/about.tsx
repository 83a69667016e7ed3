import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { pageSeo } from "~/components/page-seo";
import { buttonClass } from "~/components/ui/button";
import { informationPageHeaders } from "~/services/cache.server";

export const headers = informationPageHeaders;

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "About Us",
    "Expert Answers connects people with verified professionals for fast, personalised answers and one-to-one sessions.",
  );

const VALUES = [
  {
    name: "Accessibility",
    text: "Expert advice should not depend on who you know. A clear question and five dollars are enough to reach a professional.",
  },
  {
    name: "Quality",
    text: "We verify every expert before they are marked as such, and we only charge for questions that get an answer.",
  },
  {
    name: "Respect",
    text: "For your time, your privacy and your question. Experts answer people, not tickets, and we never sell your data.",
  },
  {
    name: "Innovation",
    text: "Text or recorded audio answers, live sessions and subscriptions: we keep finding simpler ways to share knowledge.",
  },
  {
    name: "Impact",
    text: "A good answer at the right moment can save a business, a launch or a month of guesswork. That is what we measure.",
  },
];

const STEPS = [
  {
    title: "Find the right expert",
    text: "Browse by category, read profiles and qualifications, and pick someone whose experience fits your question.",
  },
  {
    title: "Ask or book",
    text: "Ask a one-time question, book a 60-minute session, or subscribe to ask a new question every day.",
  },
  {
    title: "Get your answer",
    text: "Your expert replies in writing or with an audio recording within 24 hours; most answers arrive within 12.",
  },
];

export default function About() {
  return (
    <div className="container">
      <header className="page-header">
        <span className="eyebrow">About us</span>
        <h1>About Expert Answers</h1>
        <p>
          We connect people who need a trustworthy answer with professionals who have already solved the
          problem.
        </p>
      </header>

      <section className="section two-col" aria-labelledby="mission">
        <div className="prose">
          <h2 id="mission">Our mission</h2>
          <p>
            Make expert knowledge available to everyone, on demand. Whether you are starting a business,
            growing a brand or choosing the right technology, you should be able to ask someone who knows, and
            hear back within a day, without retainers, sales calls or waiting lists.
          </p>
          <h2 id="story">Our story</h2>
          <p>
            Expert Answers began with a simple frustration: the best advice we ever got came from a single
            conversation with someone who had done it before, yet finding that person took weeks. We built a
            marketplace where founders, marketers and operators can reach verified experts in minutes, and
            where experts can share what they know on their own schedule and be paid fairly for it.
          </p>
        </div>
        <aside className="card">
          <h2>At a glance</h2>
          <ul className="prose">
            <li>500+ professionals across ten business categories</li>
            <li>Answers within 24 hours, most within 12</li>
            <li>Questions from $5.00, sessions of 60 minutes</li>
            <li>Text or audio answers, your choice</li>
          </ul>
        </aside>
      </section>

      <section className="section" aria-labelledby="how-we-work">
        <h2 id="how-we-work">How we work</h2>
        <ol className="grid plain-list">
          {STEPS.map((step, index) => (
            <li key={step.title} className="card">
              <span className="badge">Step {index + 1}</span>
              <h3 className="step-title">{step.title}</h3>
              <p className="muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section" aria-labelledby="values">
        <h2 id="values">Our values</h2>
        <ul className="grid plain-list">
          {VALUES.map((value) => (
            <li key={value.name} className="card">
              <h3>{value.name}</h3>
              <p className="muted">{value.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="section card" aria-labelledby="join">
        <h2 id="join">Ready to get started?</h2>
        <p className="muted">
          Ask your first question today, or share your expertise with people who need it.
        </p>
        <div className="cluster">
          <Link to="/experts" className={buttonClass()}>
            Browse Experts
          </Link>
          <Link to="/become-expert" className={buttonClass({ variant: "secondary" })}>
            Become an Expert
          </Link>
        </div>
      </section>
    </div>
  );
}
