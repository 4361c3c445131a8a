import { useEffect, useState } from "react";

/** True once React runs in the browser: for enhancements that only make sense with JavaScript. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
