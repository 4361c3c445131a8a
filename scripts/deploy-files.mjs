// What a production install carries (decision 0087): the manifest and lockfile, and the build
// (build/client holds the browser's files, public/ copied in). README's "Two commands for a fresh machine" names them, the
// production-install test copies them, and the Dockerfile's runtime stage must copy exactly
// these (scripts/check-deploy-files.mjs).
export const DEPLOYED = ["package.json", "package-lock.json", "build", "dist"];
