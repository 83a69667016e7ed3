import { useHydrated } from "~/components/use-hydrated";
import { browserTimeZone } from "~/lib/slots";

/**
 * The zone to date things in for the person looking: UTC while the server renders and the page
 * hydrates (the server cannot know the browser's zone, and both renders must match), then the
 * browser's own. Without it a question asked at 6 PM in California reads as asked "tomorrow".
 */
export function useViewerTimeZone(): string {
  return useHydrated() ? browserTimeZone() : "UTC";
}
