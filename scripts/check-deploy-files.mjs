// The Dockerfile, .dockerignore and the systemd unit example cannot be built or run here (no
// Docker engine, no systemd as PID 1): this holds them to what can be checked (decision 0115).
// The runtime stage must copy exactly what a production install carries (scripts/deploy-files.mjs)
// and its node_modules, run as a user other than root, start the server with package.json's
// "start" command (the heap cap), probe a path the server answers, keep DATA_DIR in a volume, and
// use the Node of .nvmrc; the build stage must install with npm install (not npm ci), build and
// prune the dev dependencies; .dockerignore must keep out what is built or secret and nothing the
// build needs; the unit must start the server with the same command and restart it on failure.
//
//   node scripts/check-deploy-files.mjs      (scripts/check-deploy-files.test.mjs in the tests)
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DEPLOYED } from "./deploy-files.mjs";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * A Dockerfile's instructions by stage: line continuations joined, comments dropped. Each
 * instruction has its keyword (upper case), its text, its `--flag=value` options and, in exec
 * form (a JSON array), its words.
 */
export function parseDockerfile(text) {
  const instructions = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!pending && (line === "" || line.startsWith("#"))) continue;
    if (pending && line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = "";
    if (!whole) continue;
    const [keyword] = whole.split(/\s+/, 1);
    let rest = whole.slice(keyword.length).trim();
    const flags = {};
    for (;;) {
      const flag = /^--([\w-]+)=(\S+)\s*/.exec(rest);
      if (!flag) break;
      flags[flag[1]] = flag[2];
      rest = rest.slice(flag[0].length);
    }
    let words = null;
    if (rest.startsWith("[")) {
      try {
        words = JSON.parse(rest);
      } catch {
        words = null;
      }
    }
    instructions.push({ keyword: keyword.toUpperCase(), text: rest, flags, words });
  }
  const globalArgs = {};
  const stages = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const [image, as, name] = instruction.text.split(/\s+/);
      stages.push({
        image,
        name: as?.toUpperCase() === "AS" ? name : String(stages.length),
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (instruction.keyword === "ARG") {
        const [name, value = ""] = instruction.text.split("=");
        globalArgs[name] = value;
      }
    } else {
      stages.at(-1).instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/** `ENV A=1 B=2` (with continuations already joined) as an object. */
function environmentOf(stage) {
  const environment = {};
  for (const { keyword, text } of stage.instructions) {
    if (keyword !== "ENV") continue;
    for (const pair of text.split(/\s+/)) {
      const [name, ...value] = pair.split("=");
      if (name && value.length) environment[name] = value.join("=");
    }
  }
  return environment;
}

/** Whether a .dockerignore pattern (a path, or one with `*`) keeps out `file`. */
export function ignoredBy(pattern, file) {
  const clean = pattern.replace(/^\/+|\/+$/g, "");
  if (!clean.includes("*")) return file === clean || file.startsWith(`${clean}/`);
  const expression = clean
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  // `*.cpuprofile` is, as Docker reads it, only at the top; a match of a folder keeps out its files.
  return new RegExp(`^${expression}(/.*)?$`).test(file);
}

/** The files the build stage may read from the checkout: every file git tracks. */
function filesTheBuildNeeds(root) {
  return execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
}

/** The problems found (empty when the files agree); each one line. */
export function checkDeployFiles({
  root = projectRoot,
  dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8"),
  dockerignore = readFileSync(path.join(root, ".dockerignore"), "utf8"),
  unit = readFileSync(path.join(root, "deploy", "conecta-storefront.service"), "utf8"),
  packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")),
  nvmrc = readFileSync(path.join(root, ".nvmrc"), "utf8").trim(),
  serverSource = readFileSync(path.join(root, "server.ts"), "utf8"),
  buildFiles = () => filesTheBuildNeeds(root),
} = {}) {
  const problems = [];
  const startWords = packageJson.scripts.start.split(/\s+/);
  const { globalArgs, stages } = parseDockerfile(dockerfile);

  if (stages.length < 2) problems.push("Dockerfile: a build stage and a runtime stage are needed");
  const runtime = stages.at(-1);
  const build = stages.find((stage) => stage !== runtime) ?? { name: "", instructions: [] };
  const runs = (stage) =>
    stage.instructions.filter((each) => each.keyword === "RUN").map((each) => each.text);

  // The Node: .nvmrc's, which is also the `node` devDependency the tests run on.
  if (globalArgs.NODE_VERSION !== nvmrc) {
    problems.push(
      `Dockerfile: ARG NODE_VERSION is ${globalArgs.NODE_VERSION}, .nvmrc says ${nvmrc}`,
    );
  }
  if (packageJson.devDependencies?.node !== nvmrc) {
    problems.push(
      `package.json: the node devDependency is ${packageJson.devDependencies?.node}, .nvmrc says ${nvmrc}`,
    );
  }
  for (const stage of stages) {
    if (!/^node:\$\{NODE_VERSION\}-/.test(stage.image)) {
      problems.push(`Dockerfile: stage ${stage.name} is not FROM node:\${NODE_VERSION}-…`);
    }
  }

  // The build stage: installs as README says, builds, keeps only the production dependencies.
  const buildRuns = runs(build).join(" && ");
  if (!/\bnpm install\b/.test(buildRuns))
    problems.push("Dockerfile: the build stage never runs npm install");
  if (/\bnpm ci\b/.test(buildRuns))
    problems.push("Dockerfile: npm ci fails on this lockfile; use npm install");
  if (!/\bnpm run build\b/.test(buildRuns))
    problems.push("Dockerfile: the build stage never runs npm run build");
  if (!/\bnpm prune --omit=dev\b/.test(buildRuns)) {
    problems.push("Dockerfile: the build stage never runs npm prune --omit=dev");
  }

  // The runtime stage: exactly the deploy's files and node_modules, from the build stage.
  const copies = runtime.instructions.filter(
    (each) => each.keyword === "COPY" || each.keyword === "ADD",
  );
  const copied = [];
  for (const copy of copies) {
    if (copy.keyword === "ADD" || copy.flags.from !== build.name) {
      problems.push(
        `Dockerfile: the runtime stage copies something not from ${build.name}: ${copy.text}`,
      );
      continue;
    }
    const sources = copy.text.split(/\s+/).slice(0, -1);
    copied.push(...sources.map((source) => source.replace(/^\/app\//, "").replace(/\/$/, "")));
  }
  const wanted = [...DEPLOYED, "node_modules"].sort();
  if (JSON.stringify([...copied].sort()) !== JSON.stringify(wanted)) {
    problems.push(
      `Dockerfile: the runtime stage copies ${[...copied].sort().join(", ")}; a production install is ${wanted.join(", ")}`,
    );
  }
  const workdir = runtime.instructions.findLast((each) => each.keyword === "WORKDIR")?.text;
  const buildWorkdir = build.instructions.findLast((each) => each.keyword === "WORKDIR")?.text;
  if (workdir !== "/app" || buildWorkdir !== "/app") {
    problems.push("Dockerfile: both stages must work in /app (the copies name /app/…)");
  }

  // Not root.
  const user = runtime.instructions.findLast((each) => each.keyword === "USER")?.text;
  if (!user || /^(root|0)(:|$)/.test(user)) {
    problems.push(`Dockerfile: the runtime stage runs as ${user ?? "root (no USER)"}`);
  }
  const environment = environmentOf(runtime);
  if (environment.NODE_ENV !== "production")
    problems.push("Dockerfile: NODE_ENV is not production");

  // npm start's command, run by node itself.
  const cmd = runtime.instructions.findLast((each) => each.keyword === "CMD");
  if (!cmd?.words) {
    problems.push("Dockerfile: CMD must be in exec form (a JSON array), so SIGTERM reaches node");
  } else if (JSON.stringify(cmd.words) !== JSON.stringify(startWords)) {
    problems.push(
      `Dockerfile: CMD is ${cmd.words.join(" ")}; npm start runs ${packageJson.scripts.start}`,
    );
  }
  if (!startWords.some((word) => word.startsWith("--max-old-space-size="))) {
    problems.push("package.json: start has no heap cap (--max-old-space-size)");
  }
  // Beside the cap, Node 24 would size the young generation from the machine (decision 0125).
  if (!startWords.some((word) => word.startsWith("--max-semi-space-size="))) {
    problems.push("package.json: start does not size the young generation (--max-semi-space-size)");
  }

  // The health check probes a path the server answers.
  const healthcheck = runtime.instructions.findLast((each) => each.keyword === "HEALTHCHECK");
  const probed = /https?:\/\/[^/\s"'`]+(\/[\w/-]*)/.exec(healthcheck?.text ?? "")?.[1];
  if (!healthcheck) problems.push("Dockerfile: no HEALTHCHECK");
  else if (!probed) problems.push("Dockerfile: the HEALTHCHECK names no URL path");
  else if (!serverSource.includes(`app.get("${probed}"`)) {
    problems.push(`Dockerfile: the HEALTHCHECK probes ${probed}, which server.ts does not serve`);
  }

  // DATA_DIR is a volume.
  const volumes = runtime.instructions
    .filter((each) => each.keyword === "VOLUME")
    .flatMap((each) => each.words ?? each.text.split(/\s+/));
  if (!environment.DATA_DIR || !volumes.includes(environment.DATA_DIR)) {
    problems.push(`Dockerfile: DATA_DIR (${environment.DATA_DIR ?? "unset"}) is not a VOLUME`);
  }

  // .dockerignore: out what is built, installed or secret; in everything the build reads.
  const patterns = dockerignore
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  for (const mustStayOut of ["node_modules", ".env", "data", "build", "dist", ".git"]) {
    if (!patterns.some((pattern) => ignoredBy(pattern, mustStayOut))) {
      problems.push(`.dockerignore: ${mustStayOut} is not kept out of the build`);
    }
  }
  const keptOut = buildFiles().filter((file) =>
    patterns.some((pattern) => ignoredBy(pattern, file)),
  );
  if (keptOut.length > 0) {
    problems.push(
      `.dockerignore: keeps out files the build needs: ${keptOut.slice(0, 5).join(", ")}`,
    );
  }

  // The systemd unit: the same command, restarted on failure, its settings from a file.
  const setting = (name) =>
    unit
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith(`${name}=`))
      .map((line) => line.slice(name.length + 1));
  const [execStart] = setting("ExecStart");
  const [node, ...execWords] = (execStart ?? "").split(/\s+/);
  if (
    !/\/node$/.test(node ?? "") ||
    JSON.stringify(execWords) !== JSON.stringify(startWords.slice(1))
  ) {
    problems.push(
      `systemd unit: ExecStart is ${execStart}; npm start runs ${packageJson.scripts.start}`,
    );
  }
  if (!["on-failure", "always"].includes(setting("Restart")[0])) {
    problems.push("systemd unit: no Restart=on-failure");
  }
  if (setting("EnvironmentFile").length === 0) problems.push("systemd unit: no EnvironmentFile");
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = checkDeployFiles();
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.log(
    "Dockerfile, .dockerignore and deploy/conecta-storefront.service agree with package.json.",
  );
}
