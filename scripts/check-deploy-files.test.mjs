// The image and the unit are checked where they cannot run (decision 0115): the project's own
// Dockerfile, .dockerignore and systemd unit pass, each rule fails on a file that breaks it, and
// the Dockerfile's HEALTHCHECK command itself tells a server answering /healthz from one that
// does not. The same test runs `.env.example`, as an operator's `.env`, through Node's own
// --env-file parser and the server's configuration.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../app/config.server";
import { checkDeployFiles, ignoredBy, parseDockerfile } from "./check-deploy-files.mjs";
import { DEPLOYED } from "./deploy-files.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
const unit = readFileSync(path.join(root, "deploy", "conecta-storefront.service"), "utf8");
const dockerignore = readFileSync(path.join(root, ".dockerignore"), "utf8");

/** The problems of the project's files with one of them changed. */
const problemsWith = (files) => checkDeployFiles({ root, ...files });

describe("the Dockerfile, .dockerignore and the systemd unit", () => {
  it("agree with package.json, the production install's files, .nvmrc and the server", () => {
    expect(checkDeployFiles()).toEqual([]);
    const { stages } = parseDockerfile(dockerfile);
    expect(stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    const copied = stages[1].instructions
      .filter((each) => each.keyword === "COPY")
      .flatMap((each) => each.text.split(/\s+/).slice(0, -1));
    expect(copied).toEqual(expect.arrayContaining(DEPLOYED.map((file) => `/app/${file}`)));
  });

  it("refuse a runtime that runs as root, another command, a lost file or a wrong probe", () => {
    expect(problemsWith({ dockerfile: dockerfile.replace("USER node", "USER root") })).toEqual([
      "Dockerfile: the runtime stage runs as root",
    ]);
    expect(problemsWith({ dockerfile: dockerfile.replace(/^USER node\n/m, "") })).toEqual([
      "Dockerfile: the runtime stage runs as root (no USER)",
    ]);
    expect(
      problemsWith({
        dockerfile: dockerfile.replace("--max-old-space-size=192", "--max-old-space-size=512"),
      }),
    ).toEqual([
      "Dockerfile: CMD is node --max-old-space-size=512 --max-semi-space-size=16 dist/server.js; npm start runs node --max-old-space-size=192 --max-semi-space-size=16 dist/server.js",
    ]);
    expect(
      problemsWith({
        dockerfile: dockerfile
          .replace('CMD ["node", "--max', "CMD node --max")
          .replace('dist/server.js"]', "dist/server.js"),
      }),
    ).toEqual(["Dockerfile: CMD must be in exec form (a JSON array), so SIGTERM reaches node"]);
    expect(
      problemsWith({
        dockerfile: dockerfile.replace(/^COPY --from=build \/app\/dist .*\n/m, ""),
      }),
    ).toEqual([
      "Dockerfile: the runtime stage copies build, node_modules, package-lock.json, package.json; a production install is build, dist, node_modules, package-lock.json, package.json",
    ]);
    expect(problemsWith({ dockerfile: dockerfile.replace("/healthz`", "/health`") })).toEqual([
      "Dockerfile: the HEALTHCHECK probes /health, which server.ts does not serve",
    ]);
    expect(problemsWith({ dockerfile: dockerfile.replace('VOLUME ["/data"]', "") })).toEqual([
      "Dockerfile: DATA_DIR (/data) is not a VOLUME",
    ]);
  });

  it("refuse a build that does not install as README says, build, or prune", () => {
    expect(
      problemsWith({
        dockerfile: dockerfile.replace("RUN npm install --no-audit --no-fund", "RUN npm ci"),
      }),
    ).toEqual([
      "Dockerfile: the build stage never runs npm install",
      "Dockerfile: npm ci fails on this lockfile; use npm install",
    ]);
    expect(
      problemsWith({ dockerfile: dockerfile.replace(" && npm prune --omit=dev", "") }),
    ).toEqual(["Dockerfile: the build stage never runs npm prune --omit=dev"]);
    expect(
      problemsWith({
        dockerfile: dockerfile.replace("ARG NODE_VERSION=24.21.0", "ARG NODE_VERSION=20.19.0"),
      }),
    ).toEqual(["Dockerfile: ARG NODE_VERSION is 20.19.0, .nvmrc says 24.21.0"]);
  });

  it("refuse a .dockerignore that lets in secrets or builds, or keeps out what the build reads", () => {
    expect(problemsWith({ dockerignore: dockerignore.replace(/^\.env\n/m, "") })).toEqual([
      ".dockerignore: .env is not kept out of the build",
    ]);
    expect(problemsWith({ dockerignore: `${dockerignore}content\n` })).toEqual([
      expect.stringMatching(/^\.dockerignore: keeps out files the build needs: content\//),
    ]);
    expect(ignoredBy("*.cpuprofile", "cpu.cpuprofile")).toBe(true);
    expect(ignoredBy("*.cpuprofile", "app/cpu.cpuprofile")).toBe(false);
    expect(ignoredBy("public/docs", "public/docs/aviso.pdf")).toBe(true);
    expect(ignoredBy("build", "app/build.ts")).toBe(false);
  });

  it("refuse a unit that starts the server otherwise, or is not restarted", () => {
    expect(
      problemsWith({
        unit: unit.replace(
          "ExecStart=/usr/bin/node --max-old-space-size=192 --max-semi-space-size=16",
          "ExecStart=/usr/bin/npm",
        ),
      }),
    ).toEqual([
      "systemd unit: ExecStart is /usr/bin/npm dist/server.js; npm start runs node --max-old-space-size=192 --max-semi-space-size=16 dist/server.js",
    ]);
    expect(problemsWith({ unit: unit.replace("Restart=on-failure", "Restart=no") })).toEqual([
      "systemd unit: no Restart=on-failure",
    ]);
    expect(problemsWith({ unit: unit.replace(/^EnvironmentFile=.*$/m, "") })).toEqual([
      "systemd unit: no EnvironmentFile",
    ]);
  });
});

describe("the HEALTHCHECK command", () => {
  /** A stand-in server: 200 on /healthz, 503 elsewhere. */
  let server;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      response.statusCode = request.url === "/healthz" ? 200 : 503;
      response.end();
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => server.close());

  /** Runs the HEALTHCHECK's exec-form command, as Docker would, against `port`. */
  function probe(command, port) {
    return new Promise((resolve) => {
      const [program, ...args] = command;
      expect(program).toBe("node");
      execFile(process.execPath, args, { env: { PORT: String(port) }, timeout: 10_000 }, (error) =>
        resolve(error ? error.code : 0),
      );
    });
  }

  it("passes on a server that answers /healthz and fails when nothing answers", async () => {
    const { stages } = parseDockerfile(dockerfile);
    const healthcheck = stages[1].instructions.find((each) => each.keyword === "HEALTHCHECK");
    const command = JSON.parse(healthcheck.text.replace(/^.*?CMD\s+/, ""));
    expect(await probe(command, server.address().port)).toBe(0);
    expect(
      await probe(
        command.map((word) => word.replace("/healthz", "/nothing")),
        server.address().port,
      ),
    ).toBe(1);
    const closed = http.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = closed.address().port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await probe(command, closedPort)).toBe(1);
  });
});

describe(".env for node --env-file, docker --env-file and systemd's EnvironmentFile", () => {
  it("reads .env.example, copied to .env, into a configuration the server accepts", () => {
    const values = parseEnv(readFileSync(path.join(root, ".env.example"), "utf8"));
    expect(values.NODE_ENV).toBe("development");
    // No quotes and no spaces around "=": Docker and systemd read the file as Node does.
    for (const line of readFileSync(path.join(root, ".env.example"), "utf8").split("\n")) {
      if (line && !line.startsWith("#")) expect(line).toMatch(/^[A-Z0-9_]+=[^"'\s]*$/);
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "env-file-"));
    expect(() => loadConfig({ ...values, DATA_DIR: dataDir })).not.toThrow();
  });
});
