/** Spec §9: the QR image is 228 × 228 px (drawn with error correction M). */
export const QR_SIZE_PX = 228;

/** The key URI authenticator apps read (Google's "Key Uri Format"). */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
}
