/** The online registration of a line already in use. */
export const REGISTRATION_PATH = "/registro-de-linea";
