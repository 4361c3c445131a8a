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
  flash: (Flash & { id: string; message: string }) | null;
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
