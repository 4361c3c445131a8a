import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { measureSms } from "~/sms/encoding";
import type { SmsMessage } from "~/sms/sender";
import { sendSmsNotices } from "./registration-notice-sms.server";

describe("the SMS notice of a new registration", () => {
  it("fits one GSM-7 SMS with a public address of up to 40 characters, whatever the token", async () => {
    const sent: SmsMessage[] = [];
    const notices = Array.from({ length: 50 }, (_, index) => ({
      to: `55000${String(index).padStart(5, "0")}`,
      token: randomBytes(16).toString("hex"),
    }));
    await sendSmsNotices(
      {
        sms: { name: "outbox", send: async (message) => void sent.push(message) },
        publicOrigin: "https://tienda-en-linea.conectamovil.mx",
        logger: { warn: vi.fn() },
      },
      notices,
    );
    expect(sent).toHaveLength(50);
    for (const [index, message] of sent.entries()) {
      expect(message).toMatchObject({ to: notices[index].to, template: "registration-notice" });
      expect(message.text).toContain(`/no-fui-yo/${notices[index].token}`);
      expect(measureSms(message.text)).toMatchObject({ encoding: "gsm7", fits: true });
    }
  });

  it("logs an SMS that cannot go, without its number or text, and sends the others", async () => {
    const warn = vi.fn();
    const sent: string[] = [];
    await sendSmsNotices(
      {
        sms: {
          name: "smpp",
          send: async (message) => {
            if (message.to === "5500000001") throw new Error("SMSC down");
            sent.push(message.to);
          },
        },
        publicOrigin: "https://example.mx",
        logger: { warn },
      },
      [
        { to: "5500000001", token: "a".repeat(32) },
        { to: "5500000002", token: "b".repeat(32) },
      ],
    );
    expect(sent).toEqual(["5500000002"]);
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/5500000001|a{32}/);
  });
});
