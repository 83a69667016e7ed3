import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { pageSeo } from "~/components/page-seo";
import { informationPageHeaders } from "~/services/cache.server";

export const headers = informationPageHeaders;

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "Terms of Service",
    "The terms that apply when you use Expert Answers to ask questions, book sessions or offer your expertise.",
  );

export default function TermsOfService() {
  return (
    <div className="container">
      <header className="page-header">
        <span className="eyebrow">Legal</span>
        <h1>Terms of Service</h1>
        <p>Last updated April 22, 2025</p>
      </header>
      <article className="card prose">
        <p>
          These terms govern your use of Expert Answers, a marketplace where clients ask verified experts
          questions and book one-to-one sessions. By creating an account or using the service you agree to
          them. If you do not agree, please do not use Expert Answers.
        </p>

        <h2>1. Eligibility</h2>
        <p>
          You must be at least 16 years old to use Expert Answers. By using the service you confirm that you
          meet this minimum age and that the information you give us is accurate.
        </p>

        <h2>2. Your account</h2>
        <p>
          You are responsible for keeping your password confidential and for everything done through your
          account. Tell us promptly if you suspect unauthorised use.
        </p>

        <h2>3. Questions, answers and sessions</h2>
        <ul>
          <li>
            A one-time question is answered by text or audio. Experts aim to answer within 24 hours. If a paid
            question is not answered within 24 hours, or the expert declines it, you are not charged.
          </li>
          <li>A follow-up to an answered question counts as a new question.</li>
          <li>
            Sessions last 60 minutes; a video call link is sent to both parties before the session starts.
          </li>
          <li>Subscribers may ask one new question per day for as long as the subscription is active.</li>
        </ul>

        <h2>4. Fees and payment</h2>
        <p>
          All prices and fees are shown and charged in US dollars. Questions start at $5.00 and may cost more
          depending on the expert; session prices are set by each expert; a subscription costs $20.00 per
          month and renews automatically until cancelled. Payments are processed by our payment provider.
          Session cancellations made within our rules are refunded in full.
        </p>

        <h2>5. Not professional advice</h2>
        <p>
          Answers reflect the personal knowledge and experience of independent experts and are provided for
          general information. Expert Answers does not provide medical, legal or financial advice that
          requires a licensed professional, and nothing on the service creates a doctor-patient,
          attorney-client or fiduciary relationship. For such matters, consult a licensed professional in your
          jurisdiction.
        </p>

        <h2>6. Experts</h2>
        <p>
          Experts are independent and are not our employees. They are responsible for the accuracy of their
          profiles and answers and must only claim qualifications they hold. We may verify, feature, suspend
          or remove expert profiles at our discretion.
        </p>

        <h2>7. Acceptable use</h2>
        <p>
          Do not use Expert Answers to harass anyone, to share unlawful, infringing or harmful content, to
          collect other users' personal information, to circumvent payments, or to interfere with the service.
          We may suspend or close accounts that break these terms.
        </p>

        <h2>8. Content</h2>
        <p>
          You keep ownership of the questions and answers you write or record. You grant us a licence to
          store, display and deliver that content as needed to operate the service.
        </p>

        <h2>9. Liability</h2>
        <p>
          The service is provided "as is". To the extent permitted by law, Expert Answers is not liable for
          decisions you make based on an expert's answer, or for indirect or consequential losses. Our total
          liability for any claim is limited to the fees you paid us in the three months before it arose.
        </p>

        <h2>10. Changes and termination</h2>
        <p>
          We may change these terms; when the changes are material we will update the date above and notify
          you. You may stop using the service and delete your account at any time.
        </p>

        <h2>11. Contact</h2>
        <p>
          Questions about these terms? Reach us through our <Link to="/contact">contact page</Link>. See also
          our <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </article>
    </div>
  );
}
