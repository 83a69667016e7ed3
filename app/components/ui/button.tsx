import { Slot } from "@radix-ui/react-slot";
import { type ButtonHTMLAttributes, forwardRef } from "react";
import { cx } from "./cx";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "sm" | "md" | "lg";

/** The class list of a button, for links and other elements styled as one. */
export function buttonClass({
  variant = "primary",
  size = "md",
  block = false,
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  className?: string;
} = {}) {
  return cx("btn", `btn--${variant}`, size !== "md" && `btn--${size}`, block && "btn--block", className);
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Render the single child (e.g. a Remix <Link>) with the button's styles. */
  asChild?: boolean;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, block, asChild = false, className, type, ...props },
  ref,
) {
  const classes = buttonClass({ variant, size, block, className });
  if (asChild) return <Slot ref={ref} className={classes} {...props} />;
  return <button ref={ref} type={type ?? "button"} className={classes} {...props} />;
});
