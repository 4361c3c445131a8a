import { useNavigation } from "react-router";
import { isPressedButton } from "./pressed";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Tooltip } from "./tooltip";

export type ButtonVariant = "primary" | "secondary" | "outline" | "quiet" | "link" | "dangerLink";
export type ButtonSize = "md" | "lg" | "icon";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-primary text-white hover:bg-primary-dark",
  secondary: "bg-secondary text-white hover:bg-secondary-dark",
  outline: "border border-primary bg-white text-primary-dark hover:bg-primary-soft",
  quiet: "border border-slate-400 bg-white text-slate-900 hover:bg-slate-100",
  link: "font-medium text-slate-800 underline underline-offset-4 hover:text-primary-dark",
  dangerLink: "font-medium text-error underline underline-offset-4",
};

const SIZES: Record<ButtonSize, string> = {
  md: "px-4 py-2.5",
  lg: "px-6 py-3 text-lg",
  icon: "h-11 w-11 text-xl",
};

/**
 * The one look of every button, and of a link that acts as one: at least 44 px high (a thumb),
 * its text wraps instead of pushing the page wider. `block` fills the row; `blockOnPhone` fills it
 * below the `sm` breakpoint only.
 */
export function buttonClass({
  variant = "primary",
  size = "md",
  width = "auto",
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  width?: "auto" | "block" | "blockOnPhone";
} = {}): string {
  const widths = { auto: "", block: "w-full", blockOnPhone: "w-full sm:w-auto" };
  return `inline-flex min-h-11 min-w-11 max-w-full items-center justify-center rounded text-center font-semibold wrap-anywhere disabled:cursor-wait disabled:opacity-80 aria-disabled:cursor-wait aria-disabled:opacity-80 ${VARIANTS[variant]} ${variant === "link" || variant === "dangerLink" ? "px-1" : SIZES[size]} ${widths[width]}`;
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  width?: "auto" | "block" | "blockOnPhone";
};

export function Button({
  variant,
  size,
  width,
  className,
  type = "button",
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      {...props}
      className={`${buttonClass({ variant, size, width })} ${className ?? ""}`}
    />
  );
}

/** True while a form of this page is being sent (JavaScript only). */
export function useIsSubmitting(method: "POST" | "GET" = "POST"): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod === method;
}

/**
 * A submit button that shows its own pending state: while its form is being sent it says so
 * (`pendingLabel`) and takes no second press. Errors never disable it (decision 0064): pressing
 * it is how the customer learns what is missing. With several submit buttons of one name, only
 * the one pressed shows progress, and with several forms of one button (each eSIM's), the one
 * whose `match` fields were sent. `pending` overrides the page's navigation (a fetcher's form);
 * `blocked` refuses presses while something else is under way.
 *
 * Pending, it is `aria-disabled`, not `disabled`: a disabled button drops the keyboard's focus to
 * the page's body, and the customer who pressed Enter would have to find their place again.
 */
export function SubmitButton({
  children,
  pendingLabel,
  pending,
  name,
  value,
  variant,
  size,
  width = "block",
  className,
  form,
  testId,
  label,
  blocked = false,
  match,
}: {
  children: ReactNode;
  pendingLabel?: ReactNode;
  pending?: boolean;
  /** Accessible name, when it differs from the visible text. */
  label?: string;
  blocked?: boolean;
  /** Other fields of its form that tell it apart from the page's other forms of this button. */
  match?: Readonly<Record<string, string>>;
  name?: string;
  value?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  width?: "auto" | "block" | "blockOnPhone";
  className?: string;
  form?: string;
  testId?: string;
}) {
  const navigation = useNavigation();
  const sending = pending ?? (navigation.state !== "idle" && navigation.formMethod === "POST");
  const mine =
    sending &&
    (pending !== undefined || isPressedButton(navigation.formData, { name, value, match }));
  const button = (
    <button
      type="submit"
      name={name}
      value={value}
      form={form}
      aria-disabled={sending || blocked || undefined}
      aria-label={label}
      onClick={(event) => {
        if (sending || blocked) event.preventDefault();
      }}
      data-testid={testId}
      className={`${buttonClass({ variant, size, width })} ${className ?? ""}`}
    >
      {mine && pendingLabel ? pendingLabel : children}
    </button>
  );
  // An icon-only button shows its name in a tooltip.
  return size === "icon" && label ? <Tooltip content={label}>{button}</Tooltip> : button;
}
