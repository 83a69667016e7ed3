/**
 * The demo marketplace: categories, accounts, experts and their history, as plain typed data.
 * Times are relative ("hours ago", "the n-th bookable day from today") so scripts/lib/demo-rows.ts can
 * place them around the moment of seeding and the demo always looks current.
 *
 * Pure data: imported by the seed (Node) and by tests/factories.ts (workerd).
 */

import type { BOOKING_STATUSES, QUESTION_STATUSES } from "../app/db/schema.server";
import { CATEGORY_DISPLAY_ORDER } from "../app/lib/categories";

export type CategorySlug = (typeof CATEGORY_DISPLAY_ORDER)[number]["slug"];

export type DemoCategory = {
  slug: CategorySlug;
  name: string;
  description: string;
  imageUrl: string;
  iconUrl: string;
  displayOrder: number;
};

const CATEGORY_DESCRIPTIONS: Record<CategorySlug, string> = {
  "starting-a-business":
    "Turn an idea into a company: validation, structure, co-founders and your first customers.",
  "marketing-and-branding":
    "Positioning, brand identity, content and campaigns that bring the right people in.",
  "funding-and-finance": "Fundraising, cash flow, pricing and the numbers investors and lenders look at.",
  "e-commerce": "Online stores, marketplaces, conversion, fulfilment and repeat customers.",
  "business-automation":
    "No-code tools, workflows and integrations that take repetitive work off your plate.",
  sales: "Prospecting, pipelines, discovery calls and closing deals without the pushiness.",
  legal: "Company formation, contracts, terms and intellectual property, explained in plain words.",
  "scaling-and-hiring": "Hiring, onboarding, team structure and the processes that let a company grow.",
  "niche-models": "Subscriptions, communities, micro-SaaS, marketplaces and other focused business models.",
  "tech-and-ai": "Choosing software, building products and putting AI to work in a small business.",
};

export const DEMO_CATEGORIES: readonly DemoCategory[] = CATEGORY_DISPLAY_ORDER.map((category, index) => ({
  slug: category.slug,
  name: category.name,
  description: CATEGORY_DESCRIPTIONS[category.slug],
  imageUrl: `/images/categories/${category.slug}.webp`,
  iconUrl: `/images/categories/icons/${category.slug}.svg`,
  displayOrder: index,
}));

export type DemoPerson = {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  /** Days between the account's creation and the seed. */
  joinedDaysAgo: number;
};

export type DemoAccount = DemoPerson & {
  /** Signs in with this password (documented in the README). */
  password: string;
  role: "user" | "expert" | "admin";
  isAdmin?: boolean;
  /** An active subscription that renews about 30 days after the seed. */
  subscriber?: boolean;
  /** What the account shows in the demo. */
  shows: string;
};

export const DEMO_ACCOUNTS = {
  client: {
    username: "demo-client",
    password: "client-pass-123",
    role: "user",
    firstName: "Jordan",
    lastName: "Lee",
    email: "jordan.lee@example.com",
    joinedDaysAgo: 45,
    shows:
      "client: pending, answered, rejected and unpaid questions; upcoming, past and cancelled sessions; favourites; notifications",
  },
  expert: {
    username: "demo-expert",
    password: "expert-pass-123",
    role: "expert",
    firstName: "Sarah",
    lastName: "Mitchell",
    email: "sarah.mitchell@example.com",
    joinedDaysAgo: 420,
    shows:
      "expert Sarah Mitchell (/demo-expert): questions to answer, upcoming and completed sessions, earnings, reviews",
  },
  admin: {
    username: "demo-admin",
    password: "admin-pass-123",
    role: "admin",
    isAdmin: true,
    firstName: "Morgan",
    lastName: "Hayes",
    email: "morgan.hayes@example.com",
    joinedDaysAgo: 500,
    shows: "admin area: every question, unverified experts to verify",
  },
  subscriber: {
    username: "demo-subscriber",
    password: "subscriber-pass-123",
    role: "user",
    subscriber: true,
    firstName: "Priya",
    lastName: "Shah",
    email: "priya.shah@example.com",
    joinedDaysAgo: 32,
    shows: "active $20/month subscription (renews in 30 days), one subscription question answered",
  },
} as const satisfies Record<string, DemoAccount>;

/** Clients who cannot sign in (unusable passwords): they give the experts a believable history. */
export const DEMO_CLIENTS: readonly DemoPerson[] = [
  {
    username: "chris-walker",
    firstName: "Chris",
    lastName: "Walker",
    email: "chris.walker@example.com",
    joinedDaysAgo: 120,
  },
  {
    username: "nina-alvarez",
    firstName: "Nina",
    lastName: "Alvarez",
    email: "nina.alvarez@example.com",
    joinedDaysAgo: 90,
  },
  {
    username: "ben-foster",
    firstName: "Ben",
    lastName: "Foster",
    email: "ben.foster@example.com",
    joinedDaysAgo: 60,
  },
];

export type DemoExpert = DemoPerson & {
  /** Names the picture: /images/experts/<slug>.webp (drawn as <slug>.svg). */
  slug: string;
  title: string;
  occupation: string;
  company: string | null;
  location: string;
  timeZone: string;
  /** One to three; the first is the main category. */
  categories: readonly CategorySlug[];
  bio: string;
  consultingTopics: string;
  qualifications: string | null;
  questionRate: number;
  sessionPrice: number;
  isTopExpert: boolean;
  isVerified: boolean;
  isAvailable: boolean;
  customUrl: string | null;
  headerImage: string;
  socialWebsite: string | null;
  /** A weekly schedule in the expert's zone; none means the default (app/lib/slots.ts DEFAULT_SCHEDULE). */
  availability?: readonly { dayOfWeek: number; startTime: string; endTime: string }[];
};

const HEADERS = {
  waves: "/images/headers/waves.svg",
  circles: "/images/headers/circles.svg",
  peaks: "/images/headers/peaks.svg",
  bands: "/images/headers/bands.svg",
};

export const DEMO_EXPERTS: readonly DemoExpert[] = [
  {
    slug: "sarah-mitchell",
    username: DEMO_ACCOUNTS.expert.username,
    firstName: DEMO_ACCOUNTS.expert.firstName,
    lastName: DEMO_ACCOUNTS.expert.lastName,
    email: DEMO_ACCOUNTS.expert.email,
    joinedDaysAgo: DEMO_ACCOUNTS.expert.joinedDaysAgo,
    title: "Startup Advisor and Two-Time Founder",
    occupation: "Startup Advisor",
    company: "Northpoint Advisory",
    location: "Boston, MA",
    timeZone: "America/New_York",
    categories: ["starting-a-business", "funding-and-finance", "scaling-and-hiring"],
    bio: "I have started two B2B software companies and sold both. For the last six years I have advised more than 80 early-stage founders on turning an idea into a business: finding the first customers, splitting equity fairly, raising a first round and making the first hires without burning cash.",
    consultingTopics: "Validating an idea, co-founder agreements, pre-seed and seed fundraising, first hires",
    qualifications: "MBA, MIT Sloan; founded and sold two B2B software companies",
    questionRate: 1500,
    sessionPrice: 12000,
    isTopExpert: true,
    isVerified: true,
    isAvailable: true,
    customUrl: "demo-expert",
    headerImage: HEADERS.waves,
    socialWebsite: "https://northpoint-advisory.example.com",
  },
  {
    slug: "marcus-reed",
    username: "marcus-reed",
    firstName: "Marcus",
    lastName: "Reed",
    email: "marcus.reed@example.com",
    joinedDaysAgo: 380,
    title: "Brand Strategist",
    occupation: "Brand Strategy Consultant",
    company: "Reed & Row Studio",
    location: "Brooklyn, NY",
    timeZone: "America/New_York",
    categories: ["marketing-and-branding", "sales"],
    bio: "Brand strategist who has shaped positioning for more than 60 consumer and B2B brands, from bakeries to fintech. I help small teams figure out who they are for, say it in one sentence, and turn that into a website, a pitch and campaigns people remember.",
    consultingTopics: "Positioning, naming, brand messaging, launch campaigns, pitch decks",
    qualifications: null,
    questionRate: 1200,
    sessionPrice: 15000,
    isTopExpert: true,
    isVerified: true,
    isAvailable: true,
    customUrl: "marcus-reed",
    headerImage: HEADERS.circles,
    socialWebsite: "https://reedandrow.example.com",
  },
  {
    slug: "elena-vasquez",
    username: "elena-vasquez",
    firstName: "Elena",
    lastName: "Vasquez",
    email: "elena.vasquez@example.com",
    joinedDaysAgo: 300,
    title: "Fractional CFO for Startups",
    occupation: "Fractional CFO",
    company: "Ledgerline Partners",
    location: "San Francisco, CA",
    timeZone: "America/Los_Angeles",
    categories: ["funding-and-finance", "starting-a-business"],
    bio: "Former VP of Finance at a Series C fintech, now a part-time CFO for seven startups. I build financial models founders actually use, prepare companies for fundraising and due diligence, and explain runway, burn and unit economics without the jargon.",
    consultingTopics: "Financial models, runway and burn, fundraising readiness, SAFEs and priced rounds",
    qualifications: "CPA (California); BSc Economics, UC Berkeley",
    questionRate: 2000,
    sessionPrice: 20000,
    isTopExpert: true,
    isVerified: true,
    isAvailable: true,
    customUrl: "elena-vasquez",
    headerImage: HEADERS.peaks,
    socialWebsite: null,
  },
  {
    slug: "james-whitaker",
    username: "james-whitaker",
    firstName: "James",
    lastName: "Whitaker",
    email: "james.whitaker@example.com",
    joinedDaysAgo: 210,
    title: "E-commerce Growth Consultant",
    occupation: "E-commerce Consultant",
    company: "Whitaker Commerce",
    location: "Manchester, UK",
    timeZone: "Europe/London",
    categories: ["e-commerce", "marketing-and-branding"],
    bio: "I ran a seven-figure Shopify store for homeware before consulting. Since 2019 I have helped over 100 independent shops lift conversion rates, cut ad spend waste and build email flows that bring customers back for a second and third order.",
    consultingTopics: "Shopify, conversion rate optimisation, email flows, paid social, retention",
    qualifications: null,
    questionRate: 1000,
    sessionPrice: 9000,
    isTopExpert: false,
    isVerified: true,
    isAvailable: true,
    customUrl: null,
    headerImage: HEADERS.bands,
    socialWebsite: null,
  },
  {
    slug: "aisha-rahman",
    username: "aisha-rahman",
    firstName: "Aisha",
    lastName: "Rahman",
    email: "aisha.rahman@example.com",
    joinedDaysAgo: 260,
    title: "Automation and AI Systems Architect",
    occupation: "Solutions Architect",
    company: "Kinetic Ops",
    location: "Singapore",
    timeZone: "Asia/Singapore",
    categories: ["business-automation", "tech-and-ai"],
    bio: "I design automations and AI assistants for small and mid-sized businesses across Asia and Europe. Typical projects remove 10 to 30 hours of manual work a week: invoice processing, lead routing, reporting and support triage, built with tools your team can maintain.",
    consultingTopics: "Zapier and Make workflows, AI assistants, CRM integrations, reporting automation",
    qualifications: "MSc Computer Science, National University of Singapore",
    questionRate: 1800,
    sessionPrice: 16000,
    isTopExpert: true,
    isVerified: true,
    isAvailable: true,
    customUrl: "aisha-rahman",
    headerImage: HEADERS.circles,
    socialWebsite: "https://kinetic-ops.example.com",
    availability: [
      { dayOfWeek: 2, startTime: "13:00", endTime: "18:00" },
      { dayOfWeek: 4, startTime: "13:00", endTime: "18:00" },
    ],
  },
  {
    slug: "tom-becker",
    username: "tom-becker",
    firstName: "Tom",
    lastName: "Becker",
    email: "tom.becker@example.com",
    joinedDaysAgo: 150,
    title: "B2B Sales Coach",
    occupation: "Sales Coach",
    company: "Becker Sales Lab",
    location: "Chicago, IL",
    timeZone: "America/Chicago",
    categories: ["sales"],
    bio: "Twelve years selling software to mid-market companies, the last five leading a team of 20. I coach founders and first sales hires on prospecting, discovery calls and follow-up, so deals move forward without discounting or pressure.",
    consultingTopics: "Cold outreach, discovery calls, objection handling, pipeline reviews",
    qualifications: null,
    questionRate: 800,
    sessionPrice: 7500,
    isTopExpert: false,
    isVerified: true,
    isAvailable: true,
    customUrl: null,
    headerImage: HEADERS.bands,
    socialWebsite: null,
  },
  {
    slug: "olivia-grant",
    username: "olivia-grant",
    firstName: "Olivia",
    lastName: "Grant",
    email: "olivia.grant@example.com",
    joinedDaysAgo: 340,
    title: "Startup and Technology Lawyer",
    occupation: "Solicitor",
    company: "Grant Legal",
    location: "London, UK",
    timeZone: "Europe/London",
    categories: ["legal", "starting-a-business"],
    bio: "Commercial solicitor for startups and online businesses. I explain company formation, shareholder agreements, terms of service and contractor contracts in plain English, and tell you when a question needs a lawyer on retainer rather than a template.",
    consultingTopics:
      "Company formation, shareholder agreements, website terms, privacy, contractor agreements",
    qualifications: "Solicitor of England and Wales; LLM, King's College London",
    questionRate: 2500,
    sessionPrice: 25000,
    isTopExpert: true,
    isVerified: true,
    isAvailable: true,
    customUrl: "olivia-grant",
    headerImage: HEADERS.waves,
    socialWebsite: "https://grantlegal.example.com",
  },
  {
    slug: "raj-patel",
    username: "raj-patel",
    firstName: "Raj",
    lastName: "Patel",
    email: "raj.patel@example.com",
    joinedDaysAgo: 180,
    title: "Head of Talent and Scaling Advisor",
    occupation: "Talent Advisor",
    company: "Foundry People",
    location: "Austin, TX",
    timeZone: "America/Chicago",
    categories: ["scaling-and-hiring"],
    bio: "I built the hiring process at two startups that grew from 10 to 200 people. Now I help founders decide who to hire next, write roles that attract the right candidates, run fair interviews and set up onboarding that gets new people productive in weeks.",
    consultingTopics: "Hiring plans, job descriptions, interview loops, onboarding, compensation bands",
    qualifications: null,
    questionRate: 1000,
    sessionPrice: 10000,
    isTopExpert: false,
    isVerified: true,
    isAvailable: true,
    customUrl: null,
    headerImage: HEADERS.peaks,
    socialWebsite: null,
  },
  {
    slug: "hannah-kim",
    username: "hannah-kim",
    firstName: "Hannah",
    lastName: "Kim",
    email: "hannah.kim@example.com",
    joinedDaysAgo: 130,
    title: "Subscription Box and Marketplace Operator",
    occupation: "Founder",
    company: "Boxwell",
    location: "Seattle, WA",
    timeZone: "America/Los_Angeles",
    categories: ["niche-models", "e-commerce"],
    bio: "I founded and run a subscription box with 9,000 monthly subscribers, and before that launched a two-sided marketplace for local makers. I help founders with churn, pricing tiers, sourcing and the logistics that make or break recurring revenue.",
    consultingTopics: "Subscription pricing, churn reduction, sourcing, fulfilment, marketplace liquidity",
    qualifications: null,
    questionRate: 900,
    sessionPrice: 8000,
    isTopExpert: false,
    isVerified: true,
    isAvailable: true,
    customUrl: "hannah-kim",
    headerImage: HEADERS.circles,
    socialWebsite: null,
  },
  {
    slug: "lucas-moreau",
    username: "lucas-moreau",
    firstName: "Lucas",
    lastName: "Moreau",
    email: "lucas.moreau@example.com",
    joinedDaysAgo: 20,
    title: "Machine Learning Engineer",
    occupation: "Freelance ML Engineer",
    company: null,
    location: "Paris, France",
    timeZone: "Europe/Paris",
    categories: ["tech-and-ai"],
    bio: "Machine learning engineer with eight years in search and recommendation systems. I help small teams decide whether they need AI at all, choose between off-the-shelf models, retrieval and fine-tuning, and ship features that are cheap to run.",
    consultingTopics: "LLM features, retrieval-augmented generation, model costs, data pipelines",
    qualifications: "MSc Applied Mathematics, Sorbonne University",
    questionRate: 1500,
    sessionPrice: 14000,
    isTopExpert: false,
    isVerified: false,
    isAvailable: true,
    customUrl: null,
    headerImage: HEADERS.bands,
    socialWebsite: null,
  },
  {
    slug: "grace-thompson",
    username: "grace-thompson",
    firstName: "Grace",
    lastName: "Thompson",
    email: "grace.thompson@example.com",
    joinedDaysAgo: 240,
    title: "Content and Social Media Strategist",
    occupation: "Content Strategist",
    company: "Northside Content Co.",
    location: "Sydney, Australia",
    timeZone: "Australia/Sydney",
    categories: ["marketing-and-branding"],
    bio: "Content strategist for lifestyle and wellness brands. I plan content calendars that a two-person team can keep up with, grow organic audiences on Instagram, TikTok and LinkedIn, and tie posts back to sales so you know what is worth the effort.",
    consultingTopics:
      "Content calendars, short-form video, Instagram and LinkedIn growth, creator partnerships",
    qualifications: null,
    questionRate: 700,
    sessionPrice: 6000,
    isTopExpert: false,
    isVerified: true,
    isAvailable: false,
    customUrl: null,
    headerImage: HEADERS.peaks,
    socialWebsite: null,
  },
  {
    slug: "david-osei",
    username: "david-osei",
    firstName: "David",
    lastName: "Osei",
    email: "david.osei@example.com",
    joinedDaysAgo: 12,
    title: "Small Business Accountant",
    occupation: "Accountant",
    company: "Osei Bookkeeping",
    location: "Toronto, ON",
    timeZone: "America/Toronto",
    categories: ["funding-and-finance"],
    bio: "Accountant for freelancers and small businesses. I set up bookkeeping that takes an hour a week, explain what to track for tax time, and help owners pay themselves sensibly and read their own profit and loss statement with confidence.",
    consultingTopics: "Bookkeeping setup, cash flow, paying yourself, small business tax basics",
    qualifications: "CPA (Ontario)",
    questionRate: 600,
    sessionPrice: 5000,
    isTopExpert: false,
    isVerified: false,
    isAvailable: true,
    customUrl: null,
    headerImage: HEADERS.waves,
    socialWebsite: null,
  },
  {
    slug: "sofia-lindqvist",
    username: "sofia-lindqvist",
    firstName: "Sofia",
    lastName: "Lindqvist",
    email: "sofia.lindqvist@example.com",
    joinedDaysAgo: 200,
    title: "Creator Economy and Micro-SaaS Advisor",
    occupation: "Indie Founder",
    company: "Lindqvist Labs",
    location: "Stockholm, Sweden",
    timeZone: "Europe/Stockholm",
    categories: ["niche-models", "business-automation", "tech-and-ai"],
    bio: "Indie founder of three small software products with paying customers in 40 countries. I advise creators and solo founders on picking a niche, pricing a small product, automating support and growing to a sustainable income without raising money.",
    consultingTopics: "Micro-SaaS, digital products, pricing, paid communities, solo founder operations",
    qualifications: null,
    questionRate: 1100,
    sessionPrice: 9500,
    isTopExpert: false,
    isVerified: true,
    isAvailable: true,
    customUrl: "sofia-lindqvist",
    headerImage: HEADERS.bands,
    socialWebsite: "https://lindqvistlabs.example.com",
  },
];

type QuestionStatus = (typeof QUESTION_STATUSES)[number];
type BookingStatus = (typeof BOOKING_STATUSES)[number];

export type DemoReview = { rating: 1 | 2 | 3 | 4 | 5; comment: string | null };

export type DemoQuestion = {
  key: string;
  asker: string;
  expert: string;
  status: QuestionStatus;
  /** Hours before the seed that the question was asked (and paid, a minute later). */
  askedHoursAgo: number;
  /** Hours after payment that the expert answered or declined. */
  handledAfterHours?: number;
  question: string;
  answer?: string;
  requestAudioResponse?: boolean;
  showOnProfile?: boolean;
  /** Asked with the asker's subscription (no charge; uses that day's question). */
  viaSubscription?: boolean;
  review?: DemoReview;
};

const CLIENT = DEMO_ACCOUNTS.client.username;
const SUBSCRIBER = DEMO_ACCOUNTS.subscriber.username;
const [CHRIS, NINA, BEN] = DEMO_CLIENTS.map((client) => client.username);

export const DEMO_QUESTIONS: readonly DemoQuestion[] = [
  {
    key: "equity-split",
    asker: CLIENT,
    expert: "sarah-mitchell",
    status: "answered",
    askedHoursAgo: 9 * 24,
    handledAfterHours: 5,
    question:
      "My co-founder and I are starting a B2B scheduling tool. I wrote the prototype and she brings ten years of industry contacts. Should we split equity 50/50, or should one of us get more?",
    answer:
      "Equal splits work best when both of you will carry the company for years, not when contributions so far are equal. The prototype and the contacts matter less than who does the next four years of work. My suggestion: if you both go full-time now, split 50/50 and put both of you on a four-year vesting schedule with a one-year cliff. That protects each of you if the other leaves early, which is far more common than founders expect. If one of you stays part-time until funding, give that person less (55/45 or 60/40 is typical) or let them earn the difference through vesting that starts when they go full-time. Write it down now in a founders' agreement, including what happens if someone leaves, while you still like each other.",
    showOnProfile: true,
    review: {
      rating: 5,
      comment: "Clear, practical and exactly the push we needed to put vesting in writing.",
    },
  },
  {
    key: "delaware",
    asker: CLIENT,
    expert: "sarah-mitchell",
    status: "answered",
    askedHoursAgo: 4 * 24,
    handledAfterHours: 7,
    question:
      "We plan to raise a small pre-seed round from angels in the next six months. Do we need to incorporate as a Delaware C-corp first, or can we stay an LLC until a lead investor asks?",
    answer:
      "If you are raising from US angels on SAFEs, convert now rather than later. Most angels and every institutional investor expect a Delaware C-corp: SAFEs are written for corporations, stock options for your first hires need one, and converting an LLC later costs legal fees and sometimes a tax bill if the company has gained value. Doing it before you have revenue or assets is cheap and simple. Keep the LLC only if you are not sure you will raise at all, or if most of your founders and investors are outside the US; in that case talk to a lawyer about the best structure for your situation. Either way, have your IP assigned to the company as part of the paperwork.",
    showOnProfile: true,
  },
  {
    key: "first-engineer",
    asker: CHRIS,
    expert: "sarah-mitchell",
    status: "answered",
    askedHoursAgo: 15 * 24,
    handledAfterHours: 3,
    question:
      "I am a non-technical founder with $300k raised. Should my first hire be a senior engineer, or should I contract an agency to build the first version?",
    answer:
      "With $300k, an agency will spend most of your runway on one version of the product, and you will own code nobody on the team understands. A senior engineer who can also talk to customers is the better bet if you can find one within two or three months. Offer meaningful equity (1 to 3 percent for the first engineer is common) and a salary you can sustain for 18 months. While you search, use no-code tools or a small fixed-price contract to build a clickable prototype, so your first engineer starts with validated requirements instead of guesses.",
    showOnProfile: true,
    review: {
      rating: 4,
      comment: "Helpful numbers on equity for the first engineer. Would have liked a template job post too.",
    },
  },
  {
    key: "subscriber-pricing",
    asker: SUBSCRIBER,
    expert: "sarah-mitchell",
    status: "answered",
    askedHoursAgo: 2 * 24,
    handledAfterHours: 10,
    viaSubscription: true,
    question:
      "I run a two-person bookkeeping practice and want to move clients from hourly billing to monthly packages. How do I price the packages without losing my current clients?",
    answer:
      "Start from what your clients paid you over the last twelve months, not from your hours. Group them by the work they need (transactions a month, payroll, year-end) and build three packages around those groups, priced at roughly what each group already pays on average. Most clients will land in a package close to their current spend, and you gain predictability. Move your best clients first with a personal conversation, give everyone 60 days' notice, and keep hourly billing only for one-off projects. Expect to lose one or two clients who were underpaying; that usually frees time for better ones.",
    showOnProfile: false,
    review: { rating: 5, comment: "Answered the same day and the three-package idea worked." },
  },
  {
    key: "raise-or-bootstrap",
    asker: CLIENT,
    expert: "sarah-mitchell",
    status: "pending",
    askedHoursAgo: 3,
    requestAudioResponse: true,
    question:
      "We are pre-revenue with a waitlist of 1,200 people for our meal-planning app. Should we raise a pre-seed round now, or launch a paid beta first and raise later with revenue?",
  },
  {
    key: "first-price",
    asker: CLIENT,
    expert: "sarah-mitchell",
    status: "pending",
    askedHoursAgo: 14,
    question:
      "What is a sensible way to set the first price for a B2B scheduling tool when we have no competitors with public pricing to compare against?",
  },
  {
    key: "advisory-board",
    asker: NINA,
    expert: "sarah-mitchell",
    status: "in_progress",
    askedHoursAgo: 6,
    question:
      "How should I structure an advisory board for my startup? How many advisors, how much equity, and what should I ask of them?",
  },
  {
    key: "rewrite-plan",
    asker: BEN,
    expert: "sarah-mitchell",
    status: "rejected",
    askedHoursAgo: 6 * 24,
    handledAfterHours: 2,
    question:
      "Can you review my 40-page business plan and rewrite the financial section so I can send it to the bank next week?",
  },
  {
    key: "hiring-sales",
    asker: CHRIS,
    expert: "sarah-mitchell",
    status: "expired",
    askedHoursAgo: 12 * 24,
    question: "When is the right moment to hire the first salesperson rather than selling as a founder?",
  },
  {
    key: "candle-positioning",
    asker: CLIENT,
    expert: "marcus-reed",
    status: "awaiting_payment",
    askedHoursAgo: 0.1,
    question:
      "How do I position a premium soy candle brand against supermarket candles that cost a third of the price?",
  },
  {
    key: "tagline",
    asker: CLIENT,
    expert: "marcus-reed",
    status: "answered",
    askedHoursAgo: 20 * 24,
    handledAfterHours: 6,
    question:
      "Our accounting software for freelancers has a tagline nobody remembers: 'Smart finance for modern workers'. How do we find a better one?",
    answer:
      "Your tagline is forgettable because it could belong to any finance product. Start from the one moment your freelancers feel the pain: chasing late invoices, a surprise tax bill, not knowing what they can spend. Write ten lines that name that moment in their words, test them with five customers by asking which one they would repeat to a friend, and keep the winner. Lines like 'Know what's yours before tax day' beat anything with 'smart' or 'modern' in it because they make a specific promise.",
    showOnProfile: true,
    review: {
      rating: 5,
      comment: "Marcus got to the heart of it in one paragraph. We changed the homepage that week.",
    },
  },
  {
    key: "runway",
    asker: NINA,
    expert: "elena-vasquez",
    status: "answered",
    askedHoursAgo: 11 * 24,
    handledAfterHours: 4,
    question:
      "We have $420k in the bank and burn about $35k a month, growing. How much runway do we really have, and when should we start fundraising?",
    answer:
      "On paper it is 12 months, but with burn growing you likely have 9 to 10. Build a simple monthly forecast with hires and their start dates, then find the month your cash drops below three months of burn: that is your real deadline. Fundraising takes four to six months from first meeting to money in the bank, so start preparing now and begin conversations no later than month four. If revenue is growing, set a clear milestone investors care about (for example $25k MRR) and plan to hit it before your first pitch.",
    showOnProfile: true,
    review: {
      rating: 5,
      comment: "Sobering but exactly right. The three-months-of-burn rule is now on our whiteboard.",
    },
  },
  {
    key: "safe-cap",
    asker: CHRIS,
    expert: "elena-vasquez",
    status: "pending",
    askedHoursAgo: 5,
    question:
      "An angel offered $150k on a post-money SAFE with an $8M cap and no discount. Is that a fair offer for a pre-revenue B2B startup?",
  },
  {
    key: "shopify-conversion",
    asker: BEN,
    expert: "james-whitaker",
    status: "answered",
    askedHoursAgo: 8 * 24,
    handledAfterHours: 9,
    question:
      "Our Shopify store converts at 0.8 percent with decent traffic from Instagram ads. Where would you look first?",
    answer:
      "0.8 percent from paid social is low but fixable. Look at three things in order. First, the landing page: send ad traffic to the product in the ad, not the home page, and make sure price, delivery cost and delivery time are visible above the fold on mobile. Second, checkout: turn on Shop Pay and Apple Pay, and remove surprise shipping costs (the most common reason people abandon). Third, the ad promise: if the ad says 'handmade' and the page looks generic, people leave. Fixing the first two usually lifts conversion to 1.5 to 2 percent within a month.",
    showOnProfile: true,
    review: { rating: 4, comment: "Practical list, the shipping cost change alone made a difference." },
  },
  {
    key: "invoice-automation",
    asker: CHRIS,
    expert: "aisha-rahman",
    status: "answered",
    askedHoursAgo: 6 * 24,
    handledAfterHours: 8,
    question:
      "We process around 300 supplier invoices a month by hand into Xero. Is Zapier or Make the better choice to automate this?",
    answer:
      "For 300 invoices a month, use Xero's own bill capture (or a tool like Dext) to read the invoices, and Make to handle everything around it: collecting invoices from the shared inbox, matching suppliers, flagging amounts over a threshold for approval, and posting to Slack. Make is cheaper than Zapier at this volume and handles branching better. Keep a human approval step for new suppliers and anything that fails to match. Expect to save 15 to 20 hours a month once it is running.",
    showOnProfile: true,
    review: {
      rating: 5,
      comment: "Saved us from building the wrong thing. Aisha knew exactly which tool fits where.",
    },
  },
  {
    key: "saas-terms",
    asker: CLIENT,
    expert: "olivia-grant",
    status: "answered",
    askedHoursAgo: 25 * 24,
    handledAfterHours: 11,
    question:
      "We are launching a small SaaS product in the UK and EU. Can we adapt another company's terms of service, or do we need our own written from scratch?",
    answer:
      "Do not copy another company's terms: they are protected by copyright and were written for a different business and risk. You do not need a bespoke contract on day one either. Use a reputable UK template service as a starting point, then make sure it covers what matters for SaaS: who owns the data, uptime and support commitments (keep them modest), limits of liability, how you handle price changes and termination, and a governing law clause. You will also need a privacy notice that matches how you actually process personal data under UK GDPR, and a data processing agreement for business customers. Have a solicitor review the final version once you have paying customers.",
    showOnProfile: false,
    review: { rating: 5, comment: "Plain English and a clear checklist. Worth every penny." },
  },
  {
    key: "box-churn",
    asker: NINA,
    expert: "hannah-kim",
    status: "answered",
    askedHoursAgo: 13 * 24,
    handledAfterHours: 5,
    question:
      "Our snack subscription box loses 14 percent of subscribers every month. What is a realistic target, and what should we try first?",
    answer:
      "For food boxes, 8 to 10 percent monthly churn is a realistic target in year one. Most of your churn happens after box two or three, so focus there. Try three things: let people skip a month instead of cancelling (it saves a third of cancellations for us), add a short survey at cancellation to learn the real reasons, and personalise box three based on what they rated in boxes one and two. Annual prepay at a discount also helps, but only once the box itself keeps people happy.",
    showOnProfile: true,
    review: { rating: 4, comment: "The skip-a-month tip alone cut our cancellations noticeably." },
  },
  {
    key: "cold-email",
    asker: BEN,
    expert: "tom-becker",
    status: "answered",
    askedHoursAgo: 3 * 24,
    handledAfterHours: 6,
    question:
      "Our cold emails get a 1 percent reply rate. What is a good benchmark and how do we improve it?",
    answer:
      "For well-targeted B2B outreach, 5 to 10 percent replies is achievable. At 1 percent the problem is usually the list, not the copy. Narrow to one role in one industry where you have a customer story, then write four sentences: why them, the problem you see in companies like theirs, the result a similar customer got, and a low-effort ask ('worth a 15-minute call?'). Send three follow-ups over two weeks, each adding something new. Test one change at a time on 100 emails.",
    showOnProfile: true,
    review: { rating: 4, comment: "Direct and actionable. Replies tripled after narrowing the list." },
  },
  {
    key: "sales-or-ops",
    asker: CHRIS,
    expert: "raj-patel",
    status: "answered",
    askedHoursAgo: 17 * 24,
    handledAfterHours: 2,
    question:
      "We are 8 people and can afford one more hire this quarter. Should it be a salesperson or an operations manager?",
    answer:
      "Look at where the founders' time goes. If you are turning away or losing deals because nobody follows up, hire sales. If founders spend more than a day a week on invoicing, scheduling, supplier calls and internal firefighting, hire operations first: it frees the founders to sell, and founder-led sales usually beats a new salesperson at your stage. Track your calendar for two weeks before deciding; the answer is normally obvious once you see the numbers.",
    showOnProfile: true,
    review: { rating: 5, comment: "Simple test, clear answer. We hired ops and I am selling again." },
  },
  {
    key: "micro-saas-pricing",
    asker: CLIENT,
    expert: "sofia-lindqvist",
    status: "answered",
    askedHoursAgo: 30 * 24,
    handledAfterHours: 12,
    question:
      "I built a small Chrome extension for recruiters with 400 free users. How should I start charging without losing everyone?",
    answer:
      "Keep a useful free tier and charge for what heavy users need: higher limits, team features, exports or integrations. Email your 400 users, explain that a paid plan is coming, and offer early users a lifetime discount if they upgrade in the first month. For recruiters, $15 to $29 per month per seat is a common range. Expect 2 to 5 percent of active free users to convert; then talk to everyone who did and build for them.",
    showOnProfile: false,
    review: { rating: 4, comment: null },
  },
  {
    key: "rag-or-finetune",
    asker: NINA,
    expert: "lucas-moreau",
    status: "answered",
    askedHoursAgo: 7 * 24,
    handledAfterHours: 14,
    question:
      "We want a support assistant that answers from our 300 help-centre articles. Should we fine-tune a model or use retrieval?",
    answer:
      "Use retrieval. Fine-tuning teaches a model a style or a task, not a set of facts that changes every week. Split your articles into short passages, index them with embeddings, retrieve the five most relevant passages for each question and ask the model to answer only from them, citing the article. Add a fallback to a human when nothing relevant is found. It is cheaper, easy to update when an article changes, and you can see why it answered what it did.",
    showOnProfile: true,
    review: { rating: 4, comment: "Clear reasoning, and the fallback idea was a good call." },
  },
  {
    key: "bookkeeping-setup",
    asker: BEN,
    expert: "david-osei",
    status: "answered",
    askedHoursAgo: 10 * 24,
    handledAfterHours: 16,
    question: "What is the simplest bookkeeping setup for a one-person design studio in Ontario?",
    answer:
      "Open a separate business bank account and card, connect them to cloud accounting software such as Wave, QuickBooks or Xero, and spend 30 minutes each Friday categorising transactions and matching receipts (photograph them on your phone). Register for HST once you pass $30,000 in revenue over four quarters, and set aside 25 to 30 percent of profit for income tax in a savings account. That covers most of what your accountant will ask for at year end.",
    showOnProfile: false,
  },
  {
    key: "reels-budget",
    asker: NINA,
    expert: "grace-thompson",
    status: "expired",
    askedHoursAgo: 40 * 24,
    question: "How many short videos a week should a small skincare brand post to grow on Instagram?",
  },
  {
    key: "gpu-costs",
    asker: CLIENT,
    expert: "lucas-moreau",
    status: "rejected",
    askedHoursAgo: 2 * 24,
    handledAfterHours: 5,
    question:
      "Can you write the code for our whole recommendation engine and tell me which GPU servers to rent for it?",
  },
];

export type DemoBooking = {
  key: string;
  client: string;
  expert: string;
  status: BookingStatus;
  /**
   * Which of the expert's bookable days, counted from today in the expert's zone: 2 is the second
   * bookable day from now, -3 the third one back.
   */
  bookableDay: number;
  startTime: string;
  notes: string;
  review?: DemoReview;
};

export const DEMO_BOOKINGS: readonly DemoBooking[] = [
  {
    key: "client-sarah-upcoming",
    client: CLIENT,
    expert: "sarah-mitchell",
    status: "confirmed",
    bookableDay: 2,
    startTime: "10:00",
    notes: "I'd like to go through our pre-seed pitch deck and the financial model behind it.",
  },
  {
    key: "nina-sarah-upcoming",
    client: NINA,
    expert: "sarah-mitchell",
    status: "confirmed",
    bookableDay: 3,
    startTime: "14:00",
    notes: "Planning our first three hires and how to pay them.",
  },
  {
    key: "chris-sarah-upcoming",
    client: CHRIS,
    expert: "sarah-mitchell",
    status: "confirmed",
    bookableDay: 5,
    startTime: "11:00",
    notes: "Review of our co-founder agreement draft before we sign it.",
  },
  {
    key: "client-sarah-past",
    client: CLIENT,
    expert: "sarah-mitchell",
    status: "completed",
    bookableDay: -5,
    startTime: "10:00",
    notes: "First conversation about validating the scheduling tool idea with paying customers.",
    review: {
      rating: 5,
      comment: "Sarah asked the questions I had been avoiding. Left with a clear two-week plan.",
    },
  },
  {
    key: "ben-sarah-past",
    client: BEN,
    expert: "sarah-mitchell",
    status: "completed",
    bookableDay: -9,
    startTime: "15:00",
    notes: "Talking through whether to take a small business loan or look for an investor.",
    review: { rating: 4, comment: "Good session, very honest about the trade-offs." },
  },
  {
    key: "client-elena-past",
    client: CLIENT,
    expert: "elena-vasquez",
    status: "completed",
    bookableDay: -3,
    startTime: "10:00",
    notes: "Help building a simple 18-month financial model for our seed round.",
  },
  {
    key: "nina-aisha-past",
    client: NINA,
    expert: "aisha-rahman",
    status: "completed",
    bookableDay: -2,
    startTime: "14:00",
    notes: "Mapping our order-to-invoice process to see what we can automate first.",
    review: { rating: 5, comment: "Came away with a diagram of our process and three automations to build." },
  },
  {
    key: "ben-aisha-upcoming",
    client: BEN,
    expert: "aisha-rahman",
    status: "confirmed",
    bookableDay: 1,
    startTime: "15:00",
    notes: "Choosing an AI assistant for customer support emails.",
  },
  {
    key: "chris-tom-past",
    client: CHRIS,
    expert: "tom-becker",
    status: "completed",
    bookableDay: -6,
    startTime: "16:00",
    notes: "Role-play of discovery calls with our first enterprise prospect.",
    review: {
      rating: 5,
      comment: "The role-play was uncomfortable in the best way. Closed the deal two weeks later.",
    },
  },
  {
    key: "client-olivia-cancelled",
    client: CLIENT,
    expert: "olivia-grant",
    status: "cancelled",
    bookableDay: 4,
    startTime: "10:00",
    notes: "Questions about our shareholder agreement before the angel round.",
  },
  {
    key: "client-marcus-hold",
    client: CLIENT,
    expert: "marcus-reed",
    status: "awaiting_payment",
    bookableDay: 3,
    startTime: "11:00",
    notes: "Workshop on the brand story for our relaunch.",
  },
  {
    key: "subscriber-james-pending",
    client: SUBSCRIBER,
    expert: "james-whitaker",
    status: "pending",
    bookableDay: 2,
    startTime: "09:00",
    notes: "Review of our Shopify store before the holiday season.",
  },
  {
    key: "chris-tom-expired",
    client: CHRIS,
    expert: "tom-becker",
    status: "expired",
    bookableDay: 1,
    startTime: "13:00",
    notes: "Pipeline review for the quarter.",
  },
];

/** Favourite experts of the demo client. */
export const DEMO_FAVORITES: readonly { user: string; expert: string }[] = [
  { user: CLIENT, expert: "sarah-mitchell" },
  { user: CLIENT, expert: "elena-vasquez" },
  { user: CLIENT, expert: "aisha-rahman" },
];

export type DemoNotification = {
  user: string;
  kind: string;
  title: string;
  body: string;
  link: string;
  /** The question or booking it is about; it is dated from that row's matching event. */
  about: { question: string } | { booking: string };
  read: boolean;
};

export const DEMO_NOTIFICATIONS: readonly DemoNotification[] = [
  {
    user: CLIENT,
    kind: "question_answered",
    title: "Your question was answered",
    body: "Sarah Mitchell answered your question about incorporating before a pre-seed round.",
    link: "/dashboard/questions",
    about: { question: "delaware" },
    read: false,
  },
  {
    user: CLIENT,
    kind: "booking_confirmed",
    title: "Session confirmed",
    body: "Your 60-minute session with Sarah Mitchell is confirmed. The meeting link is in your dashboard.",
    link: "/dashboard/bookings",
    about: { booking: "client-sarah-upcoming" },
    read: true,
  },
  {
    user: CLIENT,
    kind: "booking_cancelled",
    title: "Session cancelled",
    // Demo bookings are in test mode, as the dashboard says: no payment was taken, so none refunded.
    body: "Your session with Olivia Grant was cancelled. It was booked in test mode, so no payment was taken.",
    link: "/dashboard/bookings",
    about: { booking: "client-olivia-cancelled" },
    read: false,
  },
  {
    user: DEMO_ACCOUNTS.expert.username,
    kind: "question_new",
    title: "New question",
    body: "Jordan Lee asked you a question. Answer within 24 hours.",
    link: "/expert/questions",
    about: { question: "raise-or-bootstrap" },
    read: false,
  },
];

export type DemoContactMessage = {
  name: string;
  email: string;
  subject: string;
  message: string;
  sentHoursAgo: number;
  /** Hours after it was sent that an admin marked it handled; absent while it is open. */
  handledAfterHours?: number;
};

/** Messages sent from the contact page, for the admin area's Messages list. */
export const DEMO_CONTACT_MESSAGES: readonly DemoContactMessage[] = [
  {
    name: "Priya Shah",
    email: "priya.shah@example.com",
    subject: "Can I change my subscription's renewal date?",
    message:
      "Hi! My subscription renews on the 1st but I'd prefer the 15th. Is that possible without losing a day of questions?",
    sentHoursAgo: 5,
  },
  {
    name: "Daniel Cho",
    email: "daniel.cho@example.com",
    subject: "Becoming an expert: what gets verified?",
    message:
      "I'm a fractional CFO and would like to join. What do you check before an expert gets the Verified Expert mark?",
    sentHoursAgo: 30,
  },
  {
    name: "Maria Lopez",
    email: "maria.lopez@example.com",
    subject: "Receipt for my session",
    message: "Could you send me a receipt for the session I booked last week? I need it for my accountant.",
    sentHoursAgo: 72,
    handledAfterHours: 4,
  },
];
