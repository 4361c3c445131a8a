// A line in the bench customer's account, as a real one would have: activated with a plan at
// the BSS simulator, a fortnight of usage on it, and added to the account with the code its SMS
// brought. The bench then measures that line's page (issue 26).
import { tsImport } from "tsx/esm/api";
import { validIccid } from "./soak/customer-data.mjs";
import { createSmsReader } from "./soak/sms.mjs";
import { cookiesOf } from "./visitor-cookies.mjs";

const { openDatabase } = await tsImport("../app/db/db.server.ts", import.meta.url);
const { createBssSimulator } = await tsImport("../app/line/simulator.server.ts", import.meta.url);
const { todayInMexico } = await tsImport("../app/lib/mexico-city-days.ts", import.meta.url);

const USAGE_DAYS = 14;

function dayBefore(day, count) {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - count);
  return date.toISOString().slice(0, 10);
}

async function postForm(origin, pathname, cookie, fields) {
  const response = await fetch(`${origin}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  if (response.status !== 303) {
    throw new Error(`bench: ${pathname} answered ${response.status} to ${fields.intent}`);
  }
  return response;
}

/** The page's form key (a view token bound to this browser) and the cookies it set. */
async function formKey(origin, pathname, cookie) {
  const response = await fetch(`${origin}${pathname}`, { headers: { cookie } });
  const key = /name="idempotency_key"[^>]*value="([^"]+)"/.exec(await response.text())?.[1];
  if (!key) throw new Error(`bench: ${pathname} has no form key`);
  return { key, cookie: cookiesOf(response, cookie) };
}

/** The line's number, now in the account of `cookie`, whose page the bench then asks for. */
export async function lineOfAccount({ origin, dataDir, cookie }) {
  const db = await openDatabase({ dataDir, busyTimeoutMs: 5_000 });
  let number;
  try {
    const bss = createBssSimulator({ db });
    ({ number } = await bss.activateLine({
      externalId: `bench-${Date.now()}`,
      iccid: validIccid(),
      offerId: "conecta-150",
    }));
    const today = todayInMexico();
    for (let day = USAGE_DAYS - 1; day >= 0; day--) {
      await bss.recordUsage(number, {
        day: dayBefore(today, day),
        dataMb: 40 + 7 * day,
        minutes: day % 5,
        sms: day % 3,
      });
    }
  } finally {
    await db.destroy();
  }
  const codeSentTo = createSmsReader(dataDir);
  const lines = "/my-account/lineas";
  const since = new Date();
  const numberForm = await formKey(origin, lines, cookie);
  const sent = await postForm(origin, lines, numberForm.cookie, {
    intent: "enviar-codigo",
    phone_number: number,
    idempotency_key: numberForm.key,
  });
  const code = await codeSentTo(number, since);
  const codeForm = await formKey(origin, lines, cookiesOf(sent, numberForm.cookie));
  const added = await postForm(origin, lines, codeForm.cookie, {
    intent: "confirmar-codigo",
    code,
    phone_number: number,
    idempotency_key: codeForm.key,
  });
  if (added.headers.get("location") !== `${lines}/${number}`) {
    throw new Error(`bench: the line was not added (${added.headers.get("location")})`);
  }
  return { number, cookie: cookiesOf(added, codeForm.cookie) };
}
