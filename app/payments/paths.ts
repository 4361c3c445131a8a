/** The account's saved cards: listed, and removed (decision 0119). */
export const SAVED_CARDS_PATH = "/my-account/tarjetas";
