import type { ReactNode } from "react";

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="mb-8">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {children ? <div className="mt-3 max-w-3xl text-lg text-slate-700">{children}</div> : null}
    </header>
  );
}
