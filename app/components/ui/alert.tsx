import type { ReactNode } from "react";

const TONES = {
  error: "border-error bg-error-soft text-error",
  info: "border-secondary bg-slate-50 text-slate-900",
  success: "border-primary bg-primary-soft text-slate-900",
} as const;

/**
 * A message about the whole page or form, in a bar: `role="alert"` for errors (read out at once),
 * `role="status"` for the rest. Long words wrap.
 */
export function Alert({
  tone = "error",
  children,
  className,
  testId,
  id,
}: {
  tone?: keyof typeof TONES;
  children: ReactNode;
  className?: string;
  testId?: string;
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`rounded border-l-4 px-4 py-3 wrap-anywhere ${TONES[tone]} ${className ?? ""}`}
    >
      {children}
    </div>
  );
}
