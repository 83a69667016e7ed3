import { type ImgHTMLAttributes, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * An <img> that shows `fallback` instead when there is no source or the image fails to load,
 * including failures that happened before React hydrated (the error event is long gone by then).
 */
export function FallbackImage({
  src,
  fallback,
  ...props
}: Omit<ImgHTMLAttributes<HTMLImageElement>, "src"> & {
  src: string | null | undefined;
  fallback: ReactNode;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const image = ref.current;
    if (src && image?.complete && image.naturalWidth === 0) setFailed(src);
  }, [src]);

  // Remembering which source failed means a new source gets a fresh attempt.
  if (!src || failed === src) return <>{fallback}</>;
  // biome-ignore lint/a11y/useAltText: alt comes from props (callers pass "" for decorative images)
  return <img ref={ref} src={src} onError={() => setFailed(src)} {...props} />;
}
