// The BigInteger class srp.server.ts hands to the SRP helper (the package ships no types for it).
declare module "amazon-cognito-identity-js/lib/BigInteger.js" {
  type BigIntegerClass = new (value: string, radix: number) => { toString(radix: number): string };
  // CommonJS compiled from an ES module: Node's ESM loader gives `{ default: BigInteger }`.
  const BigInteger: BigIntegerClass | { default: BigIntegerClass };
  export default BigInteger;
}
