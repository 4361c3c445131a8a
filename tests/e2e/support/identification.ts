import type { Page } from "@playwright/test";

/**
 * What a holder uploads to show their identification (decisions 0136, 0139): a photo of it and a
 * selfie, as a phone's camera gives them, with a marker the data directory and logs must never
 * hold.
 */

/** A photo's first bytes (JPEG, PNG), then a marker the data directory and logs must never hold. */
export const IMAGE_MARKER = "e2e-identification-photo-4c1d";

export const PHOTO = {
  name: "ine.jpg",
  mimeType: "image/jpeg",
  // Past the 64 KB every other form is held to: a photo is larger.
  buffer: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.from(`${IMAGE_MARKER}-id`),
    Buffer.alloc(300 * 1024, 7),
  ]),
};

export const SELFIE = {
  name: "selfie.png",
  mimeType: "image/png",
  buffer: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from(`${IMAGE_MARKER}-selfie`),
  ]),
};

/** An INE's CIC the sandbox takes as the holder's. */
export const CIC = "123456789";

/** The identification's photo and the selfie, as a phone's camera would give them. */
export async function attachPhotos(page: Page, photo: typeof PHOTO = PHOTO) {
  await page.getByLabel(/^Foto de(l pasaporte| la identificación)$/).setInputFiles(photo);
  await page.getByLabel("Selfie", { exact: true }).setInputFiles(SELFIE);
}
