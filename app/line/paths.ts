/** Where a physical SIM is activated with its ICCID (decision 0092). */
export const SIM_ACTIVATION_PATH = "/activar";
