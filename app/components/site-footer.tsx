import { Link } from "@remix-run/react";
import { NewsletterForm } from "~/components/newsletter-form";
import { BrandMark } from "~/components/site-header";

const FOOTER_LINKS = [
  { label: "About Us", to: "/about" },
  { label: "Browse Experts", to: "/experts" },
  { label: "Contact", to: "/contact" },
  { label: "Privacy Policy", to: "/privacy-policy" },
  { label: "Terms of Service", to: "/terms-of-service" },
];

/** Our social accounts do not exist yet: shown as labelled placeholders, never as dead links. */
const SOCIAL_NETWORKS = ["Twitter", "LinkedIn", "Facebook", "Instagram"];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <section aria-labelledby="footer-about">
            <h2 id="footer-about" className="cluster footer-brand">
              <BrandMark />
              Expert Answers
            </h2>
            <p>
              Ask verified professionals your questions and get a personalised answer within 24 hours, or book
              a one-to-one session.
            </p>
            <ul className="social-list" aria-label="Social media (coming soon)">
              {SOCIAL_NETWORKS.map((network) => (
                <li key={network}>
                  <span className="social-placeholder" aria-disabled="true" title={`${network}: coming soon`}>
                    {network}
                    <small>(soon)</small>
                  </span>
                </li>
              ))}
            </ul>
          </section>

          <nav aria-labelledby="footer-links">
            <h2 id="footer-links">Company</h2>
            <ul className="footer-list">
              {FOOTER_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </nav>

          <section aria-labelledby="footer-newsletter">
            <h2 id="footer-newsletter">Newsletter</h2>
            <p>
              Expert tips and new experts, once a month.{" "}
              <Link to="/newsletter#unsubscribe" className="footer-inline-link">
                Unsubscribe
              </Link>{" "}
              any time.
            </p>
            <NewsletterForm />
          </section>
        </div>

        <div className="footer-bottom">
          <p>© {new Date().getUTCFullYear()} Expert Answers. All rights reserved.</p>
          <p>Prices in US dollars. Not a substitute for licensed medical, legal or financial advice.</p>
        </div>
      </div>
    </footer>
  );
}
