/**
 * The public expert profile's loader and favourite action, shared by its four addresses:
 * /expert/{id}, /expert/{customUrl}, /experts/{id} and /{customUrl}.
 */

import { type AppLoadContext, data, redirect } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { getOptionalUser, readWithSession } from "~/auth/session.server";
import { siteOrigin } from "~/config.server";
import { expertProfilePath } from "~/lib/experts";
import { readForm } from "~/lib/form-data.server";
import { parseId } from "~/lib/ids";
import { couldBeCustomUrl } from "~/lib/reserved-urls";
import type { ExpertLookup } from "~/models/discovery.server";
import { addFavorite, favoritesMatching, removeFavorite } from "~/models/favorites.server";
import { publicPageHeaders } from "./cache.server";
import { readExpertProfile } from "./read-models.server";

const notFound = () => data({ error: "Expert not found" }, { status: 404 });

/** A positive expert id as written in a path ("12"), or null ("abc", "-3", "0", "1e3"). */
export function parseExpertId(value: string | undefined): number | null {
  return parseId(value);
}

/** What a path segment can name: an id, a custom URL, or nothing at all (a 404 without a query). */
export function lookupFromSegment(
  segment: string | undefined,
  { allowId, allowCustomUrl }: { allowId: boolean; allowCustomUrl: boolean },
): ExpertLookup | null {
  const id = allowId ? parseExpertId(segment) : null;
  if (id !== null) return { id };
  if (allowCustomUrl && segment && couldBeCustomUrl(segment)) return { customUrl: segment };
  return null;
}

/** The profile page's data, or a thrown 404 (the route's boundary shows the not-found screen). */
export async function loadProfilePage(
  context: AppLoadContext,
  request: Request,
  lookup: ExpertLookup | null,
) {
  if (!lookup) throw notFound();
  // The heart's state rides in the session lookup's batch: asked for before anything is awaited.
  const [expert, user, favorites] = await Promise.all([
    readExpertProfile(context, lookup),
    getOptionalUser(context, request),
    readWithSession(context, request, favoritesMatching(lookup)),
  ]);
  if (!expert) throw notFound();
  const url = new URL(request.url);
  // One spelling per address ("/expert/01" and "/Ada-Quill" lead to "/expert/1" and "/ada-quill", in
  // lower case as expertProfilePath writes it), so the edge cache keeps one copy of each, and a change
  // or a deletion forgets them all.
  const segments = url.pathname.split("/");
  const written = decodeURIComponent(segments.at(-1) ?? "");
  const canonical = "id" in lookup ? String(lookup.id) : expert.customUrl?.toLowerCase();
  if (canonical && written && written !== canonical) {
    segments[segments.length - 1] = encodeURIComponent(canonical);
    throw redirect(`${segments.join("/")}${url.search}`, 301);
  }
  const favorited = user !== null && (favorites ?? []).some((row) => row.expertId === expert.id);
  return data(
    {
      origin: siteOrigin(context.config, request),
      canonicalPath: expertProfilePath(expert),
      expert,
      signedIn: user !== null,
      favorited,
      initialTab: (url.searchParams.get("tab") === "qa" && expert.answers.length > 0 ? "qa" : "about") as
        | "qa"
        | "about",
    },
    { headers: publicPageHeaders(request) },
  );
}

/**
 * The heart: form field `intent` is "favorite" or "unfavorite", for the signed-in user only (signed
 * out, it goes to the sign-in screen and back). An unknown expert is a 404 and nothing is stored.
 */
export async function handleFavoriteAction(
  context: AppLoadContext,
  request: Request,
  lookup: ExpertLookup | null,
) {
  // Like any unknown page, an unknown expert is a 404 before anything else (as in $.tsx).
  if (!lookup) return notFound();
  const expert = await readExpertProfile(context, lookup);
  if (!expert) return notFound();
  const user = await requireUser(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "favorite" && intent !== "unfavorite") {
    return data({ error: "Choose to add or remove the favourite." }, { status: 400 });
  }
  const expertId = expert.id;
  // Written through the request's D1 session, so the bookmark it returns covers this write and the
  // page's next read (the heart's state) sees it.
  const change =
    intent === "favorite"
      ? await addFavorite(context.db, user.id, expertId)
      : await removeFavorite(context.db, user.id, expertId);
  if (change === "expert_not_found") return notFound();
  return data(change, { headers: { "Cache-Control": "private, no-store" } });
}
