import { describe, expect, it } from "vitest";
import { answerDeviceChallenge, deviceVerifier } from "../srp.server";
import { startDeviceSrp, type DeviceSrpRound } from "./device-srp.server";

describe("device SRP: the app's proof (amazon-cognito-identity-js) against the emulator's check", () => {
  it("a remembered device's random password passes, another does not", async () => {
    const deviceKey = "us-west-2_0b7a7c1e-1111-4a2b-9c3d-123456789abc";
    const deviceGroupKey = "-Ab3dEf9";
    const verifier = await deviceVerifier(deviceGroupKey, deviceKey);
    for (const [password, expected] of [
      [verifier.randomPassword, true],
      ["not-the-devices-password-0123456789", false],
    ] as const) {
      let round: DeviceSrpRound | null = null;
      let verified = false;
      await answerDeviceChallenge({
        clientId: "client",
        username: "user",
        session: "s",
        device: { deviceKey, deviceGroupKey, randomPassword: password },
        call: async <T>(_operation: string, body: object) => {
          const request = body as {
            ChallengeName: string;
            ChallengeResponses: Record<string, string>;
          };
          if (request.ChallengeName === "DEVICE_SRP_AUTH") {
            round = startDeviceSrp({
              passwordVerifier: verifier.PasswordVerifier,
              salt: verifier.Salt,
              deviceGroupKey,
              deviceKey,
              srpA: request.ChallengeResponses.SRP_A,
            });
            return {
              ChallengeName: "DEVICE_PASSWORD_VERIFIER",
              Session: "s2",
              ChallengeParameters: round!.parameters,
            } as T;
          }
          verified = round!.verify(request.ChallengeResponses);
          return {} as T;
        },
      });
      expect(verified).toBe(expected);
    }
  });
});
