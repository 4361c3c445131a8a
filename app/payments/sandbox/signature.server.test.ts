import { describe, expect, it } from "vitest";
import {
  deriveNotificationKey,
  signNotification,
  SIGNATURE_TOLERANCE_SECONDS,
  verifyNotificationSignature,
} from "./signature.server";

const key = deriveNotificationKey("a-session-secret-that-is-long-enough-0123456789");
const otherKey = deriveNotificationKey("another-secret-that-is-long-enough-0123456789");
const body = JSON.stringify({ payment_id: "pay_1", status: "approved", amount: 300 });
const now = new Date("2026-11-15T12:00:00Z");

describe("sandbox notification signatures", () => {
  it("verify a notification signed with the shared key", () => {
    expect(verifyNotificationSignature([key], signNotification(key, body, now), body, now)).toBe(
      true,
    );
  });

  it("refuse a changed body", () => {
    const header = signNotification(key, body, now);
    const forged = body.replace('"approved"', '"declined"');
    expect(verifyNotificationSignature([key], header, forged, now)).toBe(false);
  });

  it("refuse another key, a missing header and malformed headers", () => {
    expect(
      verifyNotificationSignature([key], signNotification(otherKey, body, now), body, now),
    ).toBe(false);
    expect(verifyNotificationSignature([key], null, body, now)).toBe(false);
    expect(verifyNotificationSignature([key], "v1=abc", body, now)).toBe(false);
    expect(verifyNotificationSignature([key], "t=abc,v1=00", body, now)).toBe(false);
  });

  it("refuse an old notification replayed later, and one from the future", () => {
    const header = signNotification(key, body, now);
    const later = new Date(now.getTime() + (SIGNATURE_TOLERANCE_SECONDS + 1) * 1000);
    const earlier = new Date(now.getTime() - (SIGNATURE_TOLERANCE_SECONDS + 1) * 1000);
    expect(verifyNotificationSignature([key], header, body, later)).toBe(false);
    expect(verifyNotificationSignature([key], header, body, earlier)).toBe(false);
  });

  it("refuse a signature whose timestamp was changed", () => {
    const header = signNotification(key, body, now);
    const moved = header.replace(
      /t=(\d+)/,
      (_match, seconds: string) => `t=${Number(seconds) + 1}`,
    );
    expect(verifyNotificationSignature([key], moved, body, now)).toBe(false);
  });

  it("accept any key of the rotation list", () => {
    expect(
      verifyNotificationSignature([otherKey, key], signNotification(key, body, now), body, now),
    ).toBe(true);
  });

  it("derive different keys from different secrets, never the secret itself", () => {
    expect(key.equals(otherKey)).toBe(false);
    expect(key.toString("utf8")).not.toContain("a-session-secret");
  });
});
