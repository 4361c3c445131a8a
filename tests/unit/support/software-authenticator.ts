import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A platform authenticator in software, for tests that cannot use a browser: makes ES256
 * passkeys ("none" attestation) and signs assertions as navigator.credentials.create/get would,
 * for the origin it is given. The JSON it returns is what @simplewebauthn/browser hands the app.
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

interface Passkey {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

export function softwareAuthenticator(
  origin: string,
  device: {
    /** Whether the device checks its owner (PIN, fingerprint) before it signs: the UV flag. */
    userVerified?: boolean;
    /** Passkeys copied from another authenticator (a clone), each counter starting again. */
    copiedFrom?: Passkey[];
  } = {},
) {
  const passkeys: Passkey[] = (device.copiedFrom ?? []).map((passkey) => ({
    ...passkey,
    counter: 0,
  }));
  // User present (0x01), and user verified (0x04) unless the device skips it.
  const presenceFlags = device.userVerified === false ? 0x01 : 0x05;
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** navigator.credentials.create: a RegistrationResponseJSON for these creation options. */
    create(options: {
      challenge: string;
      rp: { id?: string };
      user: { id: string };
    }): Record<string, unknown> {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwk = publicKey.export({ format: "jwk" });
      const coseKey = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x!, "base64url")],
          [-3, Buffer.from(jwk.y!, "base64url")],
        ]),
      );
      const id = randomBytes(16);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([presenceFlags | 0x40]), // and attested credential data
        Buffer.alloc(4), // sign count 0
        Buffer.alloc(16), // AAGUID: none
        idLength,
        id,
        coseKey,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", authData],
        ]),
      );
      passkeys.push({ id, rpId, userHandle: options.user.id, privateKey, counter: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
      };
    },

    /**
     * Another device holding copies of these passkeys' private keys, counters from zero (a
     * cloned authenticator), that may also skip verifying its owner.
     */
    clone(changes: { userVerified?: boolean } = {}) {
      return softwareAuthenticator(origin, { ...device, ...changes, copiedFrom: passkeys });
    },

    /** navigator.credentials.get: an AuthenticationResponseJSON for these request options. */
    get(options: {
      challenge: string;
      rpId?: string;
      allowCredentials?: Array<{ id: string }>;
    }): Record<string, unknown> {
      const rpId = options.rpId ?? new URL(origin).hostname;
      const allowed = options.allowCredentials?.map((credential) => credential.id);
      const passkey = passkeys.find(
        (known) => known.rpId === rpId && (!allowed?.length || allowed.includes(b64url(known.id))),
      );
      if (!passkey) throw new Error("NotAllowedError: no passkey for this site");
      passkey.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(passkey.counter);
      const authenticatorData = Buffer.concat([
        sha256(rpId),
        Buffer.from([presenceFlags]),
        counter,
      ]);
      const clientDataJSON = clientData("webauthn.get", options.challenge);
      const signature = sign(
        "sha256",
        Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
        passkey.privateKey,
      );
      return {
        id: b64url(passkey.id),
        rawId: b64url(passkey.id),
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          userHandle: passkey.userHandle,
        },
      };
    },
  };
}
