import { data } from "react-router";

/**
 * Any path no route matches: a 404, rendered by the one error boundary (root.tsx) inside the
 * normal layout, naming the path (spec §2, non-fatal). Nothing here draws the page.
 */
export function loader() {
  throw data(null, { status: 404 });
}

/** Never rendered (the loader always throws); a module without it would be a resource route. */
export default function NotFoundPage() {
  return null;
}
