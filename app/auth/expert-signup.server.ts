import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { cutText } from "~/lib/input-text";
import { RATE_LIMITED_MESSAGE, withinRateLimit } from "~/models/rate-limits.server";
import { createUser, isUsernameTaken, UsernameTakenError } from "~/models/users.server";
import {
  type ExpertAccountInput,
  type ExpertProfileInput,
  ExpertSignupForUserSchema,
  type ExpertSignupResult,
  ExpertSignupSchema,
  type ExpertSignupValues,
  PROFILE_NOT_CREATED_MESSAGE,
  SESSION_ENDED_MESSAGE,
  SIGNED_IN_FIELD,
  type SignupNotice,
} from "~/schemas/expert";
import { deleteImageIfUnused, hasUploadedFile, storeUploadedImage } from "~/services/expert-images.server";
import {
  checkProfileReferences,
  saveNewExpertProfile,
  wizardTimeZone,
} from "~/services/expert-profile.server";
import { IMAGE_MAX_BYTES, readUploadForm, UploadError } from "~/services/media.server";
import { clientAddress } from "./authenticator.server";
import { endSession, getOptionalUser, startSession } from "./session.server";

const result = (body: ExpertSignupResult, init?: number | ResponseInit) => data(body, init);

/** Longest text echoed back per field: far above every field's own limit, well below the body's. */
const ECHO_MAX_LENGTH = 5000;

/**
 * The text fields of a refused application, to fill the form again (a no-JavaScript submission
 * reloads the page). The password is never sent back, and files cannot be.
 */
function submittedValues(form: FormData): ExpertSignupValues {
  const values: ExpertSignupValues = {};
  for (const name of Object.keys(ExpertSignupSchema.shape)) {
    if (name === "password") continue;
    const texts = form
      .getAll(name)
      .filter((value): value is string => typeof value === "string")
      .map((value) => cutText(value, ECHO_MAX_LENGTH));
    if (texts.length === 0) continue;
    values[name] = name === "expertise" ? texts : texts[0];
  }
  return values;
}

/** SPEC.md section 8's texts for an image that could not be stored, plus the reason. */
function imageNotice(kind: "profile" | "header", reason: string): SignupNotice {
  return kind === "profile"
    ? {
        title: "Profile Image Upload Failed",
        description: `Failed to upload image. Your profile was created but we couldn't upload your profile image. ${reason}`,
        variant: "destructive",
      }
    : {
        title: "Header Image Upload Failed",
        description: `Your profile was created but we couldn't upload your header image. ${reason}`,
        variant: "destructive",
      };
}

/**
 * The become-an-expert wizard's submission: one request, so one transaction from the visitor's point
 * of view (SPEC.md section 4 "Expert creation"):
 * 1. every field is checked first (SPEC.md's sign-up rules, the categories, the custom URL's
 *    availability), so bad input creates nothing;
 * 2. a visitor's account is created and signed in (a signed-in user skips this);
 * 3. the images are checked and stored; a refused image becomes a notice and the flow continues;
 * 4. the profile, its categories and the expert role are written in one batch. If that fails the
 *    account remains (signed in) and the partial-success flow runs.
 */
export async function handleExpertSignup(context: AppLoadContext, request: Request) {
  let form: FormData;
  try {
    // Two images at most, plus the text fields: anything larger is refused, never buffered.
    form = await readUploadForm(request, 2 * IMAGE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return result({ status: "invalid", errors: {}, formError: error.message }, error.status);
  }
  const signedIn = await getOptionalUser(context, request);
  if (signedIn?.expertProfile) return result({ status: "already-expert" }, 409);
  // Filled in signed in, sent without a session (a logout in another tab): say so, create nothing.
  if (!signedIn && form.get(SIGNED_IN_FIELD)) {
    return result(
      {
        status: "invalid",
        errors: {},
        formError: SESSION_ENDED_MESSAGE,
        sessionEnded: true,
        values: submittedValues(form),
      },
      401,
    );
  }

  let input: ExpertProfileInput;
  let account: ExpertAccountInput | null = null;
  if (signedIn) {
    const submission = parseWithZod(form, { schema: ExpertSignupForUserSchema });
    if (submission.status !== "success") {
      return result(
        { status: "invalid", errors: submission.error ?? {}, values: submittedValues(form) },
        400,
      );
    }
    input = submission.value;
  } else {
    const submission = parseWithZod(form, { schema: ExpertSignupSchema });
    if (submission.status !== "success") {
      return result(
        { status: "invalid", errors: submission.error ?? {}, values: submittedValues(form) },
        400,
      );
    }
    input = submission.value;
    account = submission.value;
  }
  const db = context.primaryDb;

  const categories = await checkProfileReferences(db, input);
  if (!categories.ok) {
    const errors: Record<string, string[]> = { [categories.field ?? "form"]: [categories.message] };
    // Every conflict at once: a taken username would otherwise show only once the URL was fixed.
    if (account && (await isUsernameTaken(db, account.username))) {
      errors.username = [new UsernameTakenError().message];
    }
    return result({ status: "invalid", errors, values: submittedValues(form) }, 400);
  }

  // 2. The account (role and admin flags are never taken from the form).
  let userId: number;
  const headers = new Headers();
  if (signedIn) {
    userId = signedIn.id;
  } else {
    if (!account) throw new Error("the account fields were validated but are missing");
    if (!(await withinRateLimit(db, "signup", clientAddress(request), context.now()))) {
      return result(
        { status: "invalid", errors: {}, formError: RATE_LIMITED_MESSAGE, values: submittedValues(form) },
        429,
      );
    }
    try {
      userId = await createUser(db, {
        username: account.username,
        email: account.email,
        password: account.password,
        firstName: account.firstName,
        lastName: account.lastName,
      });
    } catch (error) {
      if (!(error instanceof UsernameTakenError)) throw error;
      return result(
        { status: "invalid", errors: { username: [error.message] }, values: submittedValues(form) },
        400,
      );
    }
    await endSession(db, request);
    headers.append("Set-Cookie", await startSession(db, userId, request, context.now()));
  }

  // 3. The images: each one is optional, and a refused one never stops the sign-up.
  const notices: SignupNotice[] = [];
  const images: { profile: string | null; header: string | null } = { profile: null, header: null };
  for (const kind of ["profile", "header"] as const) {
    const value = form.get(kind === "profile" ? "profileImage" : "headerImage");
    if (!hasUploadedFile(value)) continue;
    try {
      images[kind] = (await storeUploadedImage(context.media, value)).url;
    } catch (error) {
      if (!(error instanceof UploadError)) {
        console.error(
          JSON.stringify({ level: "error", message: "image store failed", error: String(error) }),
        );
      }
      notices.push(
        imageNotice(kind, error instanceof UploadError ? error.message : "Please try again later."),
      );
    }
  }

  // 4. The profile.
  let saved: Awaited<ReturnType<typeof saveNewExpertProfile>> | null;
  try {
    saved = await saveNewExpertProfile(context, {
      userId,
      profile: input,
      timeZone: wizardTimeZone(form.get("timeZone")),
      categories,
      profileImage: images.profile,
      headerImage: images.header,
    });
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        message: "expert profile creation failed",
        userId,
        error: String(error),
      }),
    );
    saved = null;
  }
  if (!saved?.ok) {
    for (const url of [images.profile, images.header]) await deleteImageIfUnused(context, url);
    if (saved?.reason === "already_expert")
      return result({ status: "already-expert" }, { status: 409, headers });
    // An existing account had nothing made: its form stays, to send again, with the field to
    // change when the custom URL was taken since the check.
    if (signedIn) {
      const values = submittedValues(form);
      if (saved?.field) {
        return result(
          { status: "invalid", errors: { [saved.field]: [saved.message] }, values },
          saved.status,
        );
      }
      return result({ status: "invalid", errors: {}, formError: PROFILE_NOT_CREATED_MESSAGE, values }, 500);
    }
    // A new account was made and signed in: SPEC.md's partial success, to try again signed in.
    return result({ status: "partial", redirectTo: "/" }, { status: 500, headers });
  }
  return result({ status: "created", redirectTo: "/expert/dashboard", notices }, { status: 201, headers });
}
