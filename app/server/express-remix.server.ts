import type { IncomingHttpHeaders } from "node:http";
import { writeReadableStreamToWritable } from "@remix-run/node";
import type { Response as ExpressResponse } from "express";

/**
 * The Express ends of a Remix request, written here rather than taken from `@remix-run/express`,
 * whose handler builds the request's URL from the Host header, streams a body of any length and
 * sends the response before the request's cookie jar is committed (decision 0056).
 */

export function remixHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, values] of Object.entries(headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) result.append(name, value);
  }
  return result;
}

/** Writes Remix's answer; headers already set on `res` (the cookie jar's) are kept. */
export async function sendRemixResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
