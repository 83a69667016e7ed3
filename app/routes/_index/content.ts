/** The home page's fixed copy (SPEC.md section 1): how it works, sample testimonials and the FAQ. */

export const HERO_CLAIMS = [
  { value: "500+", label: "professionals" },
  { value: "20+", label: "online now" },
  { value: "24h", label: "answer time" },
] as const;

export const HOW_IT_WORKS = [
  {
    title: "Choose your expert",
    text: "Browse verified professionals by category, read their profiles and pick the one whose experience fits your question.",
  },
  {
    title: "Ask or book",
    text: "Pay once to ask a question, book a 60-minute video session, or subscribe for $20 a month to ask a new question every day.",
  },
  {
    title: "Get your answer",
    text: "Your expert answers in writing or with an audio recording within 24 hours; most answers arrive within 12.",
  },
] as const;

/** Sample content, as SPEC.md says: not real customers. */
export const TESTIMONIALS = [
  {
    content:
      "I asked how to split equity with my co-founder and had a clear, practical answer the same afternoon. It saved us weeks of awkward conversations.",
    name: "Daniel Brooks",
    role: "Founder, scheduling startup",
    avatar: "DB",
    rating: 5,
  },
  {
    content:
      "The brand strategist rewrote our pitch in one reply. Worth far more than the price of the question, and the audio answer made it feel personal.",
    name: "Maya Chen",
    role: "Owner, Chen Ceramics",
    avatar: "MC",
    rating: 5,
  },
  {
    content:
      "I booked a session to sanity-check our automation plan. Sixty focused minutes, a written summary afterwards, and we shipped it the same month.",
    name: "Luis Ortega",
    role: "Operations lead, Ortega Logistics",
    avatar: "LO",
    rating: 4,
  },
] as const;

export const FAQ = [
  {
    id: "how-fast",
    question: "How quickly will I get an answer?",
    answer:
      "Every question is answered within 24 hours, and most within 12. If an expert cannot answer in time, you are not charged.",
  },
  {
    id: "follow-ups",
    question: "Can I ask a follow-up question?",
    answer:
      "Yes. A follow-up is a one-time question like any other, so it counts as a new question and is priced the same way.",
  },
  {
    id: "subscription",
    question: "How does the subscription work?",
    answer:
      "For $20 a month, subscribers get unlimited daily questions: one new question per day, answered by our experts.",
  },
  {
    id: "advice",
    question: "Do experts give medical, legal or financial advice?",
    answer:
      "No. Advice that requires a licensed professional (medical, legal or financial advice) is not provided. Experts share their experience to help you decide; for regulated advice, consult a licensed professional.",
  },
  {
    id: "cost",
    question: "What does a question cost?",
    answer:
      "Each expert sets their own rate per question, from $5.00, shown on their profile before you pay. Fees are in US dollars, and you are only charged once your question is answered.",
  },
  {
    id: "become-expert",
    question: "How do I become an expert?",
    answer:
      "Apply through Become an Expert: create your profile, set your prices, and start answering once your account is ready. Our team verifies experts before they get the Verified Expert mark.",
  },
] as const;
