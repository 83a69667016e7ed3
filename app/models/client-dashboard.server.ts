/**
 * What the client dashboard shows a signed-in person: their favourite experts, their questions and
 * their bookings, read in one batch and always scoped to `userId` (the session's user).
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { allRows, rawBatch } from "~/db/raw.server";
import type { QUESTION_STATUSES } from "~/db/schema.server";
import { displayName, type ExpertCardData } from "~/lib/experts";
import { instantToLocal } from "~/lib/slots";
import { favoriteExpertCardsQuery, toCard } from "./discovery.server";

/** Statuses a client sees; a question still waiting for its payment is not a question yet. */
export type ClientQuestionStatus = Exclude<(typeof QUESTION_STATUSES)[number], "awaiting_payment">;

export type ExpertRef = { id: number; name: string; customUrl: string | null };

export type ClientQuestion = {
  id: number;
  question: string;
  answer: string | null;
  status: ClientQuestionStatus;
  requestAudioResponse: boolean;
  /** A recorded answer exists; it streams from /questions/{id}/audio (access-checked). */
  hasAudio: boolean;
  /** Epoch milliseconds. */
  askedAt: number;
  answeredAt: number | null;
  expert: ExpertRef | null;
  /** The client's own rating of the answer (1 to 5), or null when not rated yet. */
  myRating: number | null;
};

export type ClientBooking = {
  id: number;
  /**
   * The expert's local date (yyyy-MM-dd) and times (HH:MM) in their current zone, worked out from
   * the instants: the wall clock stored at booking time is wrong once the expert changes zone.
   */
  date: string;
  startTime: string;
  endTime: string;
  /** Epoch milliseconds (UTC). */
  startsAt: number;
  endsAt: number;
  duration: number;
  status: "pending" | "confirmed" | "completed" | "cancelled";
  expertTimeZone: string;
  expert: ExpertRef;
  /** Integer cents paid. */
  amount: number;
  /** The video room; pages show it only once it is due (app/models/bookings.server.ts). */
  meetingLink: string | null;
  /** Epoch milliseconds the link was sent, or null. */
  linkSentAt: number | null;
  /** The client's own rating of the session (1 to 5), or null when not rated yet. */
  myRating: number | null;
};

export type ClientDashboard = {
  favorites: ExpertCardData[];
  questions: ClientQuestion[];
  bookings: ClientBooking[];
};

const LIST_LIMIT = 200;

type QuestionRow = {
  id: number;
  question: string;
  answer: string | null;
  status: ClientQuestionStatus;
  request_audio_response: number;
  audio_response: string | null;
  created_at: number;
  answered_at: number | null;
  expert_id: number | null;
  expert_custom_url: string | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  my_rating: number | null;
};

type BookingRow = {
  id: number;
  starts_at: number;
  ends_at: number;
  duration: number;
  status: ClientBooking["status"];
  amount: number;
  meeting_link: string | null;
  link_sent_at: number | null;
  time_zone: string;
  expert_id: number;
  expert_custom_url: string | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  my_rating: number | null;
};

/** Everything on the dashboard, in one D1 round trip. */
export async function getClientDashboard(db: Database, userId: number): Promise<ClientDashboard> {
  const [favorites, questions, bookings] = await rawBatch(db, [
    favoriteExpertCardsQuery(db, userId),
    allRows<QuestionRow>(
      db,
      sql`
      SELECT q.id AS id, q.question AS question, q.answer AS answer, q.status AS status,
        q.request_audio_response AS request_audio_response, q.audio_response AS audio_response,
        q.created_at AS created_at, q.answered_at AS answered_at,
        e.id AS expert_id, e.custom_url AS expert_custom_url,
        u.name AS name, u.first_name AS first_name, u.last_name AS last_name, u.username AS username,
        r.rating AS my_rating
      FROM questions q
      LEFT JOIN experts e ON e.id = q.expert_id AND e.deleted_at IS NULL
      LEFT JOIN users u ON u.id = e.user_id
      LEFT JOIN reviews r ON r.question_id = q.id
      WHERE q.user_id = ${userId} AND q.status <> 'awaiting_payment'
      ORDER BY q.created_at DESC, q.id DESC
      LIMIT ${LIST_LIMIT}`,
    ),
    // Held-but-unpaid and lapsed holds were never bookings from the client's point of view.
    allRows<BookingRow>(
      db,
      sql`
      SELECT b.id AS id, b.starts_at AS starts_at, b.ends_at AS ends_at, b.duration AS duration, b.status AS status,
        b.amount AS amount, b.meeting_link AS meeting_link, b.link_sent_at AS link_sent_at,
        e.time_zone AS time_zone, e.id AS expert_id, e.custom_url AS expert_custom_url,
        u.name AS name, u.first_name AS first_name, u.last_name AS last_name, u.username AS username,
        r.rating AS my_rating
      FROM bookings b
      JOIN experts e ON e.id = b.expert_id
      JOIN users u ON u.id = e.user_id
      LEFT JOIN reviews r ON r.booking_id = b.id
      WHERE b.user_id = ${userId} AND b.status NOT IN ('awaiting_payment', 'expired')
      ORDER BY b.starts_at DESC, b.id DESC
      LIMIT ${LIST_LIMIT}`,
    ),
  ]);

  return {
    favorites: favorites.map(toCard),
    questions: questions.map((row) => ({
      id: row.id,
      question: row.question,
      // A draft is the expert's until it is sent, even once the question is declined or expired.
      answer: row.status === "answered" ? row.answer : null,
      status: row.status,
      requestAudioResponse: Boolean(row.request_audio_response),
      hasAudio: Boolean(row.audio_response),
      askedAt: Number(row.created_at),
      answeredAt: row.answered_at === null ? null : Number(row.answered_at),
      expert:
        row.expert_id === null
          ? null
          : { id: row.expert_id, name: displayName(row), customUrl: row.expert_custom_url },
      myRating: row.my_rating === null ? null : Number(row.my_rating),
    })),
    bookings: bookings.map((row) => {
      const startsAt = Number(row.starts_at);
      const endsAt = Number(row.ends_at);
      const start = instantToLocal(startsAt, row.time_zone);
      return {
        id: row.id,
        date: start.date,
        startTime: start.time,
        endTime: instantToLocal(endsAt, row.time_zone).time,
        startsAt,
        endsAt,
        duration: row.duration,
        status: row.status,
        expertTimeZone: row.time_zone,
        amount: Number(row.amount),
        meetingLink: row.meeting_link,
        linkSentAt: row.link_sent_at === null ? null : Number(row.link_sent_at),
        myRating: row.my_rating === null ? null : Number(row.my_rating),
        expert: {
          id: row.expert_id,
          name: displayName(row),
          customUrl: row.expert_custom_url,
        },
      };
    }),
  };
}
