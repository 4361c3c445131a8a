// The package ships these SRP helpers without type declarations; only what srp.server.ts uses.
import "amazon-cognito-identity-js";

declare module "amazon-cognito-identity-js" {
  export interface SrpBigInteger {
    toString(radix: number): string;
  }
  export class AuthenticationHelper {
    constructor(poolName: string);
    getLargeAValue(callback: (error: unknown, value: SrpBigInteger) => void): void;
    getPasswordAuthenticationKey(
      username: string,
      password: string,
      serverBValue: SrpBigInteger,
      salt: SrpBigInteger,
      callback: (error: unknown, hkdf: Uint8Array) => void,
    ): void;
    /** A device's random password, and its verifier and salt (hex), for ConfirmDevice. */
    generateHashDevice(
      deviceGroupKey: string,
      username: string,
      callback: (error: unknown) => void,
    ): void;
    getRandomPassword(): string;
    getVerifierDevices(): string;
    getSaltDevices(): string;
  }
  export class DateHelper {
    /** "ddd MMM D HH:mm:ss UTC YYYY", the TIMESTAMP Cognito's PASSWORD_VERIFIER expects. */
    getNowString(): string;
  }
}
