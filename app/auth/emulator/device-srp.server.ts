import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Cognito's half of SRP: the embedded emulator's for a remembered device (DEVICE_SRP_AUTH →
 * DEVICE_PASSWORD_VERIFIER), and the unit tests' stand-in for Cognito's USER_SRP_AUTH. The RFC 5054
 * 3072-bit group and the hashing amazon-cognito-identity-js uses; only the password behind the
 * verifier (a device's random password, from ConfirmDevice) can produce the signature it checks.
 */

const N = BigInt(
  "0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
);
const g = 2n;

/** Hex of a positive number as the library pads it: even length, a leading 00 if the top bit is set. */
function padHex(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return /^[89a-f]/i.test(hex) ? `00${hex}` : hex;
}
const hexHash = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}
const k = BigInt(`0x${hexHash(padHex(N) + padHex(g))}`);

export interface SrpRound {
  /** SRP_B, SALT and SECRET_BLOCK for the PASSWORD_VERIFIER challenge's parameters. */
  parameters: { SRP_B: string; SALT: string; SECRET_BLOCK: string };
  /** Whether the answer's PASSWORD_CLAIM_SIGNATURE proves the password behind the verifier. */
  verify(responses: Record<string, string>): boolean;
}
export type DeviceSrpRound = SrpRound;

/**
 * The verifier Cognito keeps for a password: v = g^x, x from the salt and the hash of
 * `<pool><user>:<password>` (the device's group key and key, for a device).
 */
export function passwordVerifier(input: {
  poolName: string;
  userName: string;
  password: string;
  saltHex: string;
}): bigint {
  const inner = createHash("sha256")
    .update(`${input.poolName}${input.userName}:${input.password}`)
    .digest("hex");
  const x = BigInt(`0x${hexHash(padHex(BigInt(`0x${input.saltHex}`)) + inner)}`);
  return modPow(g, x, N);
}

/**
 * One SRP round against a verifier: a user's password (USER_SRP_AUTH, where `poolName` is the
 * pool's name and `userName` the user's id) or a device's (DEVICE_SRP_AUTH: the device's group
 * key and key). Null for an SRP_A that is 0 modulo N, which Cognito refuses.
 */
export function startSrpRound(input: {
  verifier: bigint;
  saltHex: string;
  poolName: string;
  userName: string;
  srpA: string;
}): SrpRound | null {
  const A = BigInt(`0x${input.srpA.replace(/[^0-9a-f]/gi, "") || "0"}`);
  if (A % N === 0n) return null;
  const v = input.verifier;
  const b = BigInt(`0x${randomBytes(32).toString("hex")}`);
  const B = (k * v + modPow(g, b, N)) % N;
  const secretBlock = randomBytes(64).toString("base64");
  return {
    parameters: { SRP_B: B.toString(16), SALT: input.saltHex, SECRET_BLOCK: secretBlock },
    verify(responses) {
      const timestamp = responses.TIMESTAMP ?? "";
      if (responses.PASSWORD_CLAIM_SECRET_BLOCK !== secretBlock) return false;
      const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
      const S = modPow((A * modPow(v, u, N)) % N, b, N);
      const prk = createHmac("sha256", Buffer.from(padHex(u), "hex"))
        .update(Buffer.from(padHex(S), "hex"))
        .digest();
      const key = createHmac("sha256", prk)
        .update(Buffer.concat([Buffer.from("Caldera Derived Key"), Buffer.from([1])]))
        .digest()
        .subarray(0, 16);
      const expected = createHmac("sha256", key)
        .update(
          Buffer.concat([
            Buffer.from(input.poolName),
            Buffer.from(input.userName),
            Buffer.from(secretBlock, "base64"),
            Buffer.from(timestamp),
          ]),
        )
        .digest();
      const given = Buffer.from(responses.PASSWORD_CLAIM_SIGNATURE ?? "", "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** One device SRP round for a device confirmed with this verifier and salt (base64). */
export function startDeviceSrp(input: {
  passwordVerifier: string;
  salt: string;
  deviceGroupKey: string;
  deviceKey: string;
  srpA: string;
}): DeviceSrpRound | null {
  return startSrpRound({
    verifier: BigInt(`0x${Buffer.from(input.passwordVerifier, "base64").toString("hex") || "0"}`),
    saltHex: Buffer.from(input.salt, "base64").toString("hex"),
    poolName: input.deviceGroupKey,
    userName: input.deviceKey,
    srpA: input.srpA,
  });
}
