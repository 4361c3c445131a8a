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
  }
  export class DateHelper {
    /** "ddd MMM D HH:mm:ss UTC YYYY", the TIMESTAMP Cognito's PASSWORD_VERIFIER expects. */
    getNowString(): string;
  }
}
