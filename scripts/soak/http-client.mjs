// One simulated customer's browser, reduced to what the server sees: a cookie jar, form posts
// with the site's Origin, redirects followed by hand (so every 303 Location is read), and every
// answer recorded.

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

/**
 * Cookies of one customer. The server sets `__Host-` cookies with `Secure` in production; a
 * browser would refuse them over http, but this jar is not a browser: it keeps every cookie the
 * server sets and sends them all back, which is what a browser over https would do.
 */
export class CookieJar {
  #cookies = new Map();

  /** Applies Set-Cookie lines; Max-Age=0 or a past Expires removes the cookie. */
  store(setCookieLines) {
    for (const line of setCookieLines) {
      const [pair, ...attributes] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      let expired = false;
      for (const attribute of attributes) {
        const [key, attributeValue = ""] = attribute.trim().split("=");
        const lowerKey = key.toLowerCase();
        if (lowerKey === "max-age" && Number(attributeValue) <= 0) expired = true;
        if (lowerKey === "expires" && Date.parse(attributeValue) <= Date.now()) expired = true;
      }
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  hasPrefix(prefix) {
    return [...this.#cookies.keys()].some((name) => name.startsWith(prefix));
  }
}

/** "/sandbox/pago/chk_abc" → "/sandbox/pago/:id": latency and status counts per route. */
export function routeOf(method, pathAndQuery) {
  const pathname = pathAndQuery.split("?")[0];
  const route = pathname
    .replace(/^\/sandbox\/pago\/[^/]+$/, "/sandbox/pago/:id")
    .replace(/^\/recarga\/[^/]+$/, "/recarga/:id")
    .replace(
      /^\/my-account\/lineas\/[^/]+(\/recarga-automatica)?$/,
      "/my-account/lineas/:numero$1",
    );
  return `${method} ${route}`;
}

export class HttpError extends Error {
  constructor(message, response) {
    super(message);
    this.name = "HttpError";
    this.response = response;
  }
}

/**
 * A customer's HTTP session against one origin. `stopSignal` aborts whatever is in flight when
 * the soak gives up waiting for the last journeys.
 */
export class CustomerBrowser {
  constructor({ origin, recorder, stopSignal }) {
    this.origin = origin;
    this.recorder = recorder;
    this.stopSignal = stopSignal;
    this.jar = new CookieJar();
  }

  /** One request; resolves with status, Location (as a same-site path), headers and body text. */
  async send(method, pathAndQuery, form) {
    const headers = { Accept: "text/html" };
    const cookie = this.jar.header();
    if (cookie) headers.Cookie = cookie;
    let body;
    if (form) {
      // Cross-site writes are refused with 403: a form post comes from the site's own pages.
      headers.Origin = this.origin;
      if (form instanceof FormData) {
        // A form with files (the line registration's photos): fetch writes the multipart body
        // and its boundary.
        body = form;
      } else {
        headers["Content-Type"] = "application/x-www-form-urlencoded";
        body = new URLSearchParams(form).toString();
      }
    }
    const route = routeOf(method, pathAndQuery);
    const started = performance.now();
    let response;
    let text;
    try {
      response = await fetch(`${this.origin}${pathAndQuery}`, {
        method,
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.any([this.stopSignal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      text = await response.text();
    } catch (error) {
      // Cut off by the soak itself at the end of the grace period: not the server's doing.
      if (!this.stopSignal.aborted) this.recorder.recordNetworkError(route, pathAndQuery, error);
      throw error;
    }
    const latencyMs = performance.now() - started;
    this.jar.store(response.headers.getSetCookie());
    const rawLocation = response.headers.get("location");
    const location = rawLocation ? this.#sameSitePath(rawLocation) : null;
    const result = {
      method,
      path: pathAndQuery,
      route,
      status: response.status,
      location,
      requestId: response.headers.get("x-request-id"),
      body: text,
    };
    this.recorder.recordResponse(result, latencyMs);
    return result;
  }

  get(pathAndQuery) {
    return this.send("GET", pathAndQuery);
  }

  post(pathAndQuery, form) {
    return this.send("POST", pathAndQuery, form);
  }

  /** Follows redirects with GET, as a browser does after a 303 (or the 302 of a page to itself). */
  async follow(response) {
    let current = response;
    for (let hops = 0; current.status >= 300 && current.status < 400; hops++) {
      if (!current.location || hops >= MAX_REDIRECTS) {
        throw new HttpError(`redirect without end from ${current.path}`, current);
      }
      current = await this.get(current.location);
    }
    return current;
  }

  #sameSitePath(location) {
    const url = new URL(location, this.origin);
    // The sandbox's return address is absolute; anything off this origin is not followed.
    if (url.origin !== this.origin) return null;
    return `${url.pathname}${url.search}`;
  }
}

/** Throws unless the answer has the expected status; the journey then counts as failed. */
export function expectStatus(response, ...statuses) {
  if (!statuses.includes(response.status)) {
    throw new HttpError(
      `${response.method} ${response.path} answered ${response.status}, expected ${statuses.join(" or ")}`,
      response,
    );
  }
  return response;
}

/** Throws unless the answer is a redirect whose Location matches `pattern`. */
export function expectRedirect(response, pattern) {
  expectStatus(response, 302, 303);
  if (!response.location || !pattern.test(response.location)) {
    throw new HttpError(
      `${response.method} ${response.path} redirected to ${response.location ?? "nowhere"}, expected ${pattern}`,
      response,
    );
  }
  return response.location;
}
