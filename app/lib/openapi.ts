/**
 * The JSON API's route list and its OpenAPI 3.1 document (written to public/api/openapi.json by
 * `npm run build`, scripts/build-openapi.ts, and served from there as a static file). Request
 * bodies are generated from the same zod schemas the routes parse with, so the document cannot drift
 * from the rules. tests/unit/openapi.test.ts checks this list against the `app/routes/api.*` files:
 * a route without an entry, or an entry without a route, fails the build.
 */
import * as z from "~/lib/zod";
import {
  AccountProfileSchema,
  ChangePasswordApiSchema,
  CreateUserApiSchema,
  LoginSchema,
} from "~/schemas/auth";
import {
  BookingApiSchema,
  ConfirmBookingPaymentSchema,
  SessionPaymentIntentSchema,
} from "~/schemas/bookings";
import { ExpertPricingSchema, ExpertSignupForUserSchema, makeExpertGeneralSchema } from "~/schemas/expert";
import {
  AnswerPatchSchema,
  AskQuestionApiSchema,
  ConfirmPaymentSchema,
  QuestionPaymentIntentSchema,
} from "~/schemas/questions";
import { SubscribeAccountSchema } from "~/schemas/subscription";

type Method = "get" | "post" | "patch" | "delete";
/** none: public; user: a signed-in session cookie; optional: public, with more for the signed-in. */
type Auth = "none" | "user" | "optional";

type Body =
  | {
      kind: "json";
      schema: z.ZodType;
      /** Fields the route accepts without them although the schema requires them (it fills them in). */
      optional?: readonly string[];
      /** List fields the route also accepts comma-joined (SPEC.md: expertise). */
      commaJoined?: readonly string[];
    }
  | {
      kind: "multipart";
      fields: Record<string, { type: "file" | "string"; description: string; required?: boolean }>;
    };

export type ApiOperation = {
  method: Method;
  summary: string;
  auth: Auth;
  body?: Body;
  query?: Record<string, string>;
  /** Status codes besides 200 and the ones `auth` and `body` imply, with what they mean. */
  responses?: Record<number, string>;
  /** The success status when it is not 200. */
  success?: number;
};

export type ApiRoute = {
  /** The OpenAPI path, parameters in braces. */
  path: string;
  /** The route module under app/routes, or null for a static file under public/. */
  file: string | null;
  operations: ApiOperation[];
};

const expertPatchSchema = z
  .object({
    ...makeExpertGeneralSchema(null).shape,
    ...ExpertPricingSchema.shape,
    isAvailable: z.boolean(),
  })
  .partial();

const expertCreateSchema = ExpertSignupForUserSchema.extend({ userId: z.number().int().positive() });

const browseQuery = {
  q: "Search in name, title, bio, expertise and category name",
  category: "A category slug",
  sort: "recommended | price_low | price_high | top_rated",
  minPrice: "Lowest question rate, whole dollars (0 to 500)",
  maxPrice: "Highest question rate, whole dollars (0 to 500)",
  page: "Page number, 12 experts a page (X-Total-Count and X-Page-Count headers)",
};

const notFound = { 404: "Not found" };

export const API_ROUTES: ApiRoute[] = [
  {
    path: "/api/openapi.json",
    // Built with the app rather than in every Worker: the builder and zod's JSON Schema converter
    // would add 27 KiB to a Worker held to 1 MiB, for a document that changes only with the code.
    file: null,
    operations: [{ method: "get", summary: "This document", auth: "none" }],
  },
  {
    path: "/api/auth/status",
    file: "api.auth.status.ts",
    operations: [
      { method: "get", summary: "Whether the caller is signed in: {authenticated, user}", auth: "optional" },
    ],
  },
  {
    path: "/api/auth/login",
    file: "api.auth.login.ts",
    operations: [
      {
        method: "post",
        summary: "Sign in; sets the session cookie and answers {authenticated, user}",
        auth: "none",
        body: { kind: "json", schema: LoginSchema },
        responses: { 401: "Invalid username or password", 429: "Too many sign-in attempts" },
      },
    ],
  },
  {
    path: "/api/auth/logout",
    file: "api.auth.logout.ts",
    operations: [{ method: "post", summary: "Sign out (ends the session everywhere)", auth: "optional" }],
  },
  {
    path: "/api/auth/change-password",
    file: "api.auth.change-password.ts",
    operations: [
      {
        method: "post",
        summary: "Change the password; other sessions end (confirmPassword defaults to newPassword)",
        auth: "user",
        body: { kind: "json", schema: ChangePasswordApiSchema, optional: ["confirmPassword"] },
        responses: { 429: "Too many wrong passwords (counted with sign-in attempts)" },
      },
    ],
  },
  {
    path: "/api/users",
    file: "api.users._index.ts",
    operations: [
      {
        method: "post",
        summary: "Create an account and sign it in (subscription, register or expert sign-up payloads)",
        auth: "none",
        success: 201,
        body: { kind: "json", schema: CreateUserApiSchema },
        responses: { 409: "Username is taken", 429: "Too many new accounts from this address (20 an hour)" },
      },
    ],
  },
  {
    path: "/api/users/{id}",
    file: "api.users.$id.ts",
    operations: [
      {
        method: "patch",
        summary: "Edit the caller's own name and e-mail",
        auth: "user",
        body: { kind: "json", schema: AccountProfileSchema },
        responses: { 403: "Not the caller's account", ...notFound },
      },
      {
        method: "delete",
        summary: "Delete the caller's own account (ends a subscription first)",
        auth: "user",
        responses: {
          403: "Not the caller's account",
          502: "The payment provider could not end the subscription",
        },
      },
    ],
  },
  {
    path: "/api/featured-experts",
    file: "api.featured-experts.ts",
    operations: [{ method: "get", summary: "The featured experts (cards)", auth: "none" }],
  },
  {
    path: "/api/experts",
    file: "api.experts._index.ts",
    operations: [
      { method: "get", summary: "Browse experts (cards)", auth: "none", query: browseQuery },
      {
        method: "post",
        summary: "Become an expert (the sign-up rules; prices in cents; termsAgreed must be true)",
        auth: "user",
        success: 201,
        body: {
          kind: "json",
          schema: expertCreateSchema,
          optional: ["userId", "questionRate", "sessionPrice"],
        },
        responses: { 403: "userId is not the caller", 409: "Already an expert, or the custom URL is taken" },
      },
    ],
  },
  {
    path: "/api/experts/{id}",
    file: "api.experts.$id.ts",
    operations: [
      { method: "get", summary: "An expert's public profile", auth: "none", responses: notFound },
      {
        method: "patch",
        summary: "Edit the caller's own expert profile (settings rules; prices in cents) or {isAvailable}",
        auth: "user",
        body: { kind: "json", schema: expertPatchSchema, commaJoined: ["expertise"] },
        responses: { 403: "Not the caller's profile", 409: "The custom URL is taken", ...notFound },
      },
    ],
  },
  {
    path: "/api/experts/custom/{customUrl}",
    file: "api.experts.custom.$customUrl.ts",
    operations: [
      {
        method: "get",
        summary: "An expert's public profile by custom URL",
        auth: "none",
        responses: notFound,
      },
    ],
  },
  {
    path: "/api/experts/{id}/questions",
    file: "api.experts.$id.questions.ts",
    operations: [
      {
        method: "get",
        summary: "Answered questions (public ones for visitors); ?status=pending for the expert and admins",
        auth: "optional",
        query: { status: "answered (default) | pending" },
        responses: { 403: "pending: not the expert", ...notFound },
      },
    ],
  },
  {
    path: "/api/experts/{id}/questions/all",
    file: "api.experts.$id.questions.all.ts",
    operations: [
      {
        method: "get",
        summary: "Every paid question to the expert (the expert and admins)",
        auth: "user",
        responses: { 403: "Not the expert", 404: "No such expert" },
      },
    ],
  },
  {
    path: "/api/experts/{id}/bookings",
    file: "api.experts.$id.bookings.ts",
    operations: [
      {
        method: "get",
        summary: "The expert's sessions (the expert and admins)",
        auth: "user",
        query: { status: "pending | confirmed | completed | cancelled" },
        responses: { 403: "Not the expert", 404: "No such expert" },
      },
    ],
  },
  {
    path: "/api/experts/{id}/reviews",
    file: "api.experts.$id.reviews.ts",
    operations: [
      { method: "get", summary: "The expert's reviews (rating 1 to 5)", auth: "none", responses: notFound },
    ],
  },
  {
    path: "/api/experts/{id}/availability",
    file: "api.experts.$id.availability.ts",
    operations: [
      {
        method: "get",
        summary: "Weekly schedule, time zone and free slots",
        auth: "none",
        query: { date: "yyyy-MM-dd: only this date's slots" },
        responses: notFound,
      },
    ],
  },
  {
    path: "/api/experts/{id}/categories",
    file: "api.experts.$id.categories.ts",
    operations: [{ method: "get", summary: "The expert's categories", auth: "none", responses: notFound }],
  },
  {
    path: "/api/experts/{id}/upload/{kind}",
    file: "api.experts.$id.upload.$kind.ts",
    operations: [
      {
        method: "post",
        summary:
          "Upload the profile (kind=profile) or header (kind=header) image: {profileImage} or {headerImage}",
        auth: "user",
        body: {
          kind: "multipart",
          fields: {
            image: { type: "file", description: "JPEG, PNG, WebP or GIF, at most 5 MB", required: true },
          },
        },
        responses: { 403: "Not the caller's profile", 413: "Image too large", 415: "Not an image" },
      },
    ],
  },
  {
    path: "/api/categories",
    file: "api.categories._index.ts",
    operations: [{ method: "get", summary: "Every category", auth: "none" }],
  },
  {
    path: "/api/categories/slug/{slug}",
    file: "api.categories.slug.$slug.ts",
    operations: [{ method: "get", summary: "One category by slug", auth: "none", responses: notFound }],
  },
  {
    path: "/api/categories/id/{id}/experts",
    file: "api.categories.id.$id.experts.ts",
    operations: [
      {
        method: "get",
        summary: "The experts of a category",
        auth: "none",
        query: browseQuery,
        responses: notFound,
      },
    ],
  },
  {
    path: "/api/user/favorites",
    file: "api.user.favorites.ts",
    operations: [{ method: "get", summary: "The caller's favourite experts", auth: "user" }],
  },
  {
    path: "/api/user/favorites/{expertId}/status",
    file: "api.user.favorites.$expertId.status.ts",
    operations: [{ method: "get", summary: "{favorited}", auth: "user", responses: notFound }],
  },
  {
    path: "/api/user/favorites/{expertId}",
    file: "api.user.favorites.$expertId.ts",
    operations: [
      { method: "post", summary: "Add a favourite: {favorited: true}", auth: "user", responses: notFound },
      {
        method: "delete",
        summary: "Remove a favourite: {favorited: false}",
        auth: "user",
        responses: notFound,
      },
    ],
  },
  {
    path: "/api/questions",
    file: "api.questions.ts",
    operations: [
      {
        method: "get",
        summary:
          "The caller's own questions (every question for an admin, 50 a page: X-Has-More and a Link to the next)",
        auth: "user",
        query: { page: "An admin's page number (from 1)" },
      },
      {
        method: "post",
        summary: "Ask a question: the client secret to confirm, or accepted at once (test mode, subscribers)",
        auth: "user",
        body: { kind: "json", schema: AskQuestionApiSchema },
        responses: {
          201: "Accepted without payment",
          409: "Daily subscription question used, or the price is not expectedAmount (reason: price_changed)",
          ...notFound,
        },
      },
    ],
  },
  {
    path: "/api/questions/{questionId}",
    file: "api.questions.$questionId.ts",
    operations: [
      {
        method: "patch",
        summary:
          "Answer (status answered) or save a draft (status pending): the question's expert or an admin",
        auth: "user",
        body: { kind: "json", schema: AnswerPatchSchema },
        responses: { 409: "Already answered, closed or past its deadline", ...notFound },
      },
    ],
  },
  {
    path: "/api/questions/{questionId}/audio",
    file: "api.questions.$questionId.audio.ts",
    operations: [
      {
        method: "post",
        summary: "Answer with a recording: {audioPath}",
        auth: "user",
        body: {
          kind: "multipart",
          fields: {
            audio: {
              type: "file",
              description: "WebM, Ogg, MP4, MP3, WAV, FLAC or AAC, at most 25 MB",
              required: true,
            },
            status: { type: "string", description: "answered" },
            answer: { type: "string", description: "Optional text answer" },
          },
        },
        responses: {
          409: "Already answered, closed or past its deadline",
          413: "File too large",
          415: "Not audio, or an audio file that could not be read",
          ...notFound,
        },
      },
    ],
  },
  {
    path: "/api/questions/{questionId}/payment",
    file: "api.questions.$questionId.payment.ts",
    operations: [
      {
        method: "post",
        summary: "Tell the server the browser confirmed the question's payment",
        auth: "user",
        body: { kind: "json", schema: ConfirmPaymentSchema },
        responses: notFound,
      },
    ],
  },
  {
    path: "/api/create-payment-intent",
    file: "api.create-payment-intent.ts",
    operations: [
      {
        method: "post",
        summary:
          "Write the unpaid question (type question) or hold the session (type session): {clientSecret}",
        auth: "user",
        body: {
          kind: "json",
          schema: z.union([QuestionPaymentIntentSchema, SessionPaymentIntentSchema]),
        },
        responses: {
          409: "Slot taken, daily question used, or the price is not expectedAmount (reason: price_changed)",
          ...notFound,
        },
      },
    ],
  },
  {
    path: "/api/create-subscription-intent",
    file: "api.create-subscription-intent.ts",
    operations: [
      {
        method: "post",
        summary: "Start the $20/month subscription (signed out: creates the account first): {clientSecret}",
        auth: "optional",
        body: { kind: "json", schema: SubscribeAccountSchema, optional: ["email", "username", "password"] },
        responses: {
          201: "Active at once (test mode)",
          409: "Username taken, or already subscribed",
          429: "Too many new accounts from this address",
        },
      },
    ],
  },
  {
    path: "/api/bookings",
    file: "api.bookings.ts",
    operations: [
      { method: "get", summary: "The caller's own sessions", auth: "user" },
      {
        method: "post",
        summary: "Book a session: the client secret to confirm, or confirmed at once in test mode",
        auth: "user",
        body: { kind: "json", schema: BookingApiSchema },
        responses: {
          201: "Booked (test mode)",
          409: "The slot is taken, or the price is not expectedAmount (reason: price_changed)",
          ...notFound,
        },
      },
    ],
  },
  {
    path: "/api/bookings/{bookingId}/payment",
    file: "api.bookings.$bookingId.payment.ts",
    operations: [
      {
        method: "post",
        summary: "Tell the server the browser confirmed the session's payment",
        auth: "user",
        body: { kind: "json", schema: ConfirmBookingPaymentSchema },
        responses: { 409: "The hold ran out and the slot went to someone else", ...notFound },
      },
    ],
  },
];

/** Route modules under /api that are not calls, and so are not in the document. */
export const UNDOCUMENTED_API_ROUTES: Record<string, string> = {
  "api.$.ts": "the JSON 404 for any other path under /api",
};

/**
 * The URL path Remix's flat routes give a route file: dots separate segments (`[.]` is a literal
 * dot), `$name` is a parameter, `_index` and leading-underscore (pathless) segments add nothing, and
 * a trailing underscore only opts out of nesting.
 */
export function routeFileToPath(file: string): string {
  const name = file.replace(/\/route\.tsx?$/, "").replace(/\.tsx?$/, "");
  const segments = name
    .replaceAll("[.]", "\u0000")
    .split(".")
    .map((segment) => segment.replaceAll("\u0000", "."))
    .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
    .map((segment) => segment.replace(/_$/, ""))
    .map((segment) => (segment.startsWith("$") ? `{${segment.slice(1)}}` : segment));
  return `/${segments.join("/")}`;
}

const ErrorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: { type: "string", description: "What went wrong, in words a person can read" },
    fieldErrors: {
      type: "object",
      additionalProperties: { type: "array", items: { type: "string" } },
      description: "The messages of each invalid field (SPEC.md section 5)",
    },
  },
} as const;

function jsonSchemaOf(
  schema: z.ZodType,
  optional: readonly string[] = [],
  commaJoined: readonly string[] = [],
) {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    $schema?: string;
    required?: string[];
    properties?: Record<string, unknown>;
  } & Record<string, unknown>;
  for (const name of commaJoined) {
    const list = json.properties?.[name];
    if (json.properties && list) {
      json.properties[name] = { anyOf: [list, { type: "string", description: "comma-joined" }] };
    }
  }
  if (json.required) {
    json.required = json.required.filter((name) => !optional.includes(name));
    if (json.required.length === 0) delete json.required;
  }
  return json;
}

function operationObject(path: string, op: ApiOperation) {
  const parameters = [
    ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: name === "kind" ? { type: "string", enum: ["profile", "header"] } : { type: "string" },
    })),
    ...Object.entries(op.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    })),
  ];
  const error = (description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  const responses: Record<string, unknown> = {
    [String(op.success ?? 200)]: { description: "Success", content: { "application/json": {} } },
  };
  if (op.body) responses["400"] = error("Invalid input: the field messages of the screens");
  if (op.body?.kind === "json")
    responses["415"] = error("The body is not JSON (Content-Type: application/json)");
  if (op.auth === "user") responses["401"] = error("Not signed in");
  if (op.method !== "get") responses["403"] = error("Cross-site request, or not permitted");
  for (const [status, description] of Object.entries(op.responses ?? {})) {
    responses[status] = Number(status) < 300 ? { description } : error(description);
  }
  let requestBody: unknown;
  if (op.body?.kind === "json") {
    requestBody = {
      required: true,
      content: {
        "application/json": { schema: jsonSchemaOf(op.body.schema, op.body.optional, op.body.commaJoined) },
      },
    };
  } else if (op.body?.kind === "multipart") {
    const fields = Object.entries(op.body.fields);
    requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: Object.fromEntries(
              fields.map(([name, field]) => [
                name,
                field.type === "file"
                  ? {
                      type: "string",
                      contentMediaType: "application/octet-stream",
                      description: field.description,
                    }
                  : { type: "string", description: field.description },
              ]),
            ),
            required: fields.filter(([, field]) => field.required).map(([name]) => name),
          },
        },
      },
    };
  }
  return {
    summary: op.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    ...(op.auth === "user" ? { security: [{ sessionCookie: [] }] } : {}),
    ...(op.auth === "optional" ? { security: [{}, { sessionCookie: [] }] } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route in API_ROUTES. */
export function buildOpenApiDocument(origin: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Expert Answers API",
      version: "1.0.0",
      description:
        "The calls the screens make (SPEC.md section 7), for other clients. Sign in with POST /api/auth/login " +
        "and send the session cookie back. JSON bodies need Content-Type: application/json; uploads are " +
        "multipart. State-changing calls from another site are refused (403). Prices are integer cents.",
    },
    servers: [{ url: origin }],
    components: {
      securitySchemes: { sessionCookie: { type: "apiKey", in: "cookie", name: "__session" } },
      schemas: { Error: ErrorSchema },
    },
    paths: Object.fromEntries(
      API_ROUTES.map((route) => [
        route.path,
        Object.fromEntries(route.operations.map((op) => [op.method, operationObject(route.path, op)])),
      ]),
    ),
  };
}
