import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { pageSeo } from "~/components/page-seo";
import { informationPageHeaders } from "~/services/cache.server";

export const headers = informationPageHeaders;

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "Privacy Policy",
    "How Expert Answers collects, uses, shares and protects your personal information.",
  );

export default function PrivacyPolicy() {
  return (
    <div className="container">
      <header className="page-header">
        <span className="eyebrow">Legal</span>
        <h1>Privacy Policy</h1>
        <p>Last updated April 22, 2025</p>
      </header>
      <article className="card prose">
        <p>
          This policy explains what personal information Expert Answers ("we", "us") collects when you use our
          website and services, why we collect it, and the choices you have. By using Expert Answers you agree
          to the practices described here.
        </p>

        <h2>Information we collect</h2>
        <ul>
          <li>
            <strong>Account information:</strong> your username, name, email address and a securely hashed
            password. Experts also provide a professional title, biography, areas of expertise, pricing and
            optional profile and header images.
          </li>
          <li>
            <strong>Questions, answers and bookings:</strong> the questions you ask, the text or audio answers
            you receive or give, session dates and times, and any notes you add.
          </li>
          <li>
            <strong>Payment information:</strong> payments are processed by our payment provider, Stripe. We
            never see or store your full card number; we keep a reference to each payment, its amount and its
            status.
          </li>
          <li>
            <strong>Messages:</strong> what you send through our contact form, and your email address if you
            subscribe to our newsletter.
          </li>
          <li>
            <strong>Technical data:</strong> basic request logs (such as the time, page and a request
            identifier) and the cookies described below.
          </li>
        </ul>

        <h2>How we use your information</h2>
        <ul>
          <li>to create and secure your account and keep you signed in;</li>
          <li>to deliver your questions to experts and their answers to you, and to run booked sessions;</li>
          <li>to process payments, refunds and subscriptions;</li>
          <li>to send service messages such as answer notifications, reminders and meeting links;</li>
          <li>to respond to your enquiries and, if you subscribed, to send our newsletter;</li>
          <li>to prevent fraud and abuse and to comply with our legal obligations.</li>
        </ul>

        <h2>What experts and other users see</h2>
        <p>
          Experts see the name you give and the content of the questions you send them, so they can answer.
          Your email address is used for notifications and account purposes and is not shown publicly. An
          expert's public profile shows the information they choose to publish.
        </p>

        <h2>Sharing</h2>
        <p>
          We do not sell your personal information. We share it only with service providers who help us run
          Expert Answers (hosting, payment processing and email delivery) under agreements that require them
          to protect it, and when the law requires us to.
        </p>

        <h2>Cookies</h2>
        <p>
          We use a small number of essential cookies: one that keeps you signed in, one that shows a
          confirmation message after you complete an action, and one that makes sure you see your own latest
          changes. We do not use advertising or cross-site tracking cookies.
        </p>

        <h2>Retention and security</h2>
        <p>
          We keep your information while your account is active and as long as needed to provide the service,
          resolve disputes and meet legal and accounting requirements. Passwords are stored only as salted
          hashes, connections are encrypted, and access to personal data is limited to the people who need it.
        </p>

        <h2>Your rights</h2>
        <p>
          You can view and update your account details at any time, delete your account from your account
          settings, and unsubscribe from the newsletter. Depending on where you live, you may also have the
          right to access, correct, export or erase your data, or to object to certain processing. To make a
          request, <Link to="/contact">contact us</Link>.
        </p>

        <h2>Children</h2>
        <p>
          Expert Answers is not intended for anyone under 16, and we do not knowingly collect information from
          children under 16.
        </p>

        <h2>Changes to this policy</h2>
        <p>
          We may update this policy from time to time. When we make material changes we will update the date
          above and, where appropriate, notify you by email.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about this policy? Reach us through our <Link to="/contact">contact page</Link>.
        </p>
      </article>
    </div>
  );
}
