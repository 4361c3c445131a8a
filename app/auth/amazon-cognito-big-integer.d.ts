// The BigInteger class srp.server.ts hands to the SRP helper (the package ships no types for it).
declare module "amazon-cognito-identity-js/lib/BigInteger.js" {
  const BigInteger: { new (value: string, radix: number): { toString(radix: number): string } };
  export default BigInteger;
}
