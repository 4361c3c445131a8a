// The codes the store sends by SMS, read where its embedded SMS outbox writes them
// (DATA_DIR/sms-outbox, one JSON file per message, named by time): the production server the soak
// runs does not serve /dev/outbox, and a customer reads the code on the phone of that line.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const CODE = /\b(\d{6})\b/;
const WAIT_MS = 5_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outbox files' names start with the time, "2026-11-24T10-00-01-000Z-…": sortable as text. */
const fileTime = (isoTime) => isoTime.replace(/[:.]/g, "-");

export function createSmsReader(dataDir) {
  const dir = path.join(dataDir, "sms-outbox");
  /**
   * The code of the newest SMS to `number` sent at or after `since` (a Date), waiting for it a
   * little; throws when none arrives.
   */
  return async function codeSentTo(number, since) {
    const earliest = fileTime(new Date(since.getTime() - 1_000).toISOString());
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const names = (await readdir(dir).catch(() => []))
        .filter((name) => name.endsWith(".json") && name >= earliest)
        .sort()
        .reverse();
      for (const name of names) {
        const message = JSON.parse(await readFile(path.join(dir, name), "utf8"));
        if (message.to === number) {
          const code = CODE.exec(message.text)?.[1];
          if (code) return code;
        }
      }
      if (Date.now() > deadline) throw new Error(`no SMS code reached ${number}`);
      await sleep(50);
    }
  };
}
