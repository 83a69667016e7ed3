import { FallbackImage } from "~/components/fallback-image";
import { cx } from "~/components/ui/cx";

// The first and last words' first letters or digits (or emoji), markup and other symbols left out:
// "<b>Zoë</b> (Quill)" and "^_^ Zoë `Quill`" give "ZQ". By code point, never by UTF-16 unit: half
// an emoji is not text, and the server writes it as U+FFFD where the browser keeps it, which
// breaks hydration.
function initials(name: string) {
  const words = name.replace(/<\/?[a-z][^>]*>/gi, " ").split(/\s+/);
  const firsts = words.flatMap((word) => word.match(/[\p{L}\p{N}\p{So}]/u) ?? []);
  return ((firsts[0] ?? "") + (firsts.length > 1 ? firsts[firsts.length - 1] : "")).toUpperCase();
}

/** An expert's round photo, or their initials when there is none (or it fails to load). */
export function ExpertAvatar({
  src,
  name,
  size = "md",
  className,
  eager = false,
}: {
  src: string | null;
  name: string;
  size?: "sm" | "md" | "lg" | "xl";
  className?: string;
  /** Above the fold (a profile's photo): load at once instead of lazily. */
  eager?: boolean;
}) {
  const classes = cx("avatar", `avatar--${size}`, className);
  return (
    <FallbackImage
      src={src}
      alt=""
      className={classes}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      // The profile's photo is often its largest paint: fetch it ahead of the scripts. (React 18
      // knows no fetchPriority prop; the lowercase attribute passes through as it is.)
      {...(eager ? { fetchpriority: "high" } : {})}
      width={96}
      height={96}
      fallback={
        <span className={cx(classes, "avatar--initials")} aria-hidden="true">
          {initials(name) || "?"}
        </span>
      }
    />
  );
}
