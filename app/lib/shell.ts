import type { Flash } from "./flash";

/** What the root loader hands the layout (navigation, footer, messages). */
export interface ShellData {
  locale: "es";
  appTitle: string;
  description: string;
  /** The configured public origin (PUBLIC_BASE_URL): canonical and sharing addresses. */
  origin: string;
  /** The sharing image's alt text. */
  shareImageAlt: string;
  /** The signed-in customer, or null. */
  customer: { email: string } | null;
  cartCount: number;
  /** The cart's plan ids and quantities, so that pending cart actions show at once. */
  cartItems: Array<{ id: string; quantity: number }>;
  /** The pending message, its action's label translated (null when it offers none). */
  flash:
    | (Omit<Flash, "action"> & {
        id: string;
        message: string;
        action: { href: string; label: string } | null;
      })
    | null;
  links: {
    physicalSim: string;
    chat: string;
    whatsapp: string;
    tiktok: string;
    instagram: string;
    facebook: string;
  };
  contactEmail: string;
  /** A production server the operator runs on test doubles: every page says so. */
  testEnvironment: boolean;
}
