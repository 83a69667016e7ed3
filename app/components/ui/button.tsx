import {
  type ButtonHTMLAttributes,
  Children,
  cloneElement,
  forwardRef,
  isValidElement,
  type ReactElement,
} from "react";
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
  if (asChild) {
    // The child (a <Link>, say) keeps its own props and gains the button's classes. No Radix Slot:
    // this button is on every page, and the Slot package is not.
    const child = Children.only(props.children);
    if (!isValidElement(child)) return null;
    const childProps = (child as ReactElement<{ className?: string }>).props;
    return cloneElement(child as ReactElement<Record<string, unknown>>, {
      ...props,
      ...childProps,
      children: (childProps as { children?: unknown }).children,
      className: cx(classes, childProps.className),
      ref,
    });
  }
  return <button ref={ref} type={type ?? "button"} className={classes} {...props} />;
});
