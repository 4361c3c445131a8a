export const REGISTRATION_PATH = "/registro-de-linea";
