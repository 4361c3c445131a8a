// What a production install carries (decision 0087): the manifest and lockfile, the patches npm
// applies at install, and the build. README's "Two commands for a fresh machine" names them, the
// production-install test copies them, and the Dockerfile's runtime stage must copy exactly
// these (scripts/check-deploy-files.mjs).
export const DEPLOYED = ["package.json", "package-lock.json", "patches", "build", "dist", "public"];
