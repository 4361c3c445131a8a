// The cookies a browser holds after a few steps on the storefront, for the scripts that measure
// pages as a customer sees them (npm run bench, npm run lighthouse).

/** The cookies a response set, as a Cookie header to send back (values only, no attributes). */
export function cookiesOf(response, previous = "") {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair]),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (/Max-Age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The id of the first plan on the plans page. */
export async function firstPlanId(origin) {
  const plansHtml = await (await fetch(`${origin}/plans`)).text();
  return /name="id" value="([^"]+)"/.exec(plansHtml)?.[1] ?? "plan-desconocido";
}

/**
 * A browser's cookies holding one plan in its cart, as they are after the page the add led to
 * (which showed the "added" message and cleared it).
 */
export async function cartCookie(origin, planId) {
  const added = await fetch(`${origin}/cart`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `intent=add&id=${encodeURIComponent(planId)}`,
    redirect: "manual",
  });
  const cookie = cookiesOf(added);
  const shown = await fetch(`${origin}/cart`, { headers: { cookie }, redirect: "manual" });
  return cookiesOf(shown, cookie);
}
