import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import pino from "pino";
import {
  loggedPath,
  publicFiles,
  refuseCrossSiteWrites,
  requestIdOf,
  requestLog,
} from "./middlewares";

describe("the request log's path", () => {
  it("masks a line's number, as the pages do, and leaves every other path alone", () => {
    expect(loggedPath("/my-account/lineas/5512345678")).toBe("/my-account/lineas/55••••5678");
    expect(loggedPath("/my-account/lineas/5512345678.data")).toBe(
      "/my-account/lineas/55••••5678.data",
    );
    expect(loggedPath("/recarga/AbC123xyz")).toBe("/recarga/AbC123xyz");
    expect(loggedPath("/pedido/PED-2026-000123")).toBe("/pedido/PED-2026-000123");
    // Fewer than ten digits: not a line.
    expect(loggedPath("/x/123456789")).toBe("/x/123456789");
  });

  it("masks a line's number written with its country's 52, a plus, or percent-escaped digits", () => {
    expect(loggedPath("/my-account/lineas/+525512345678")).toBe("/my-account/lineas/+52••••5678");
    expect(loggedPath("/my-account/lineas/525512345678")).toBe("/my-account/lineas/52••••5678");
    expect(loggedPath("/my-account/lineas/%35%35%31%32%33%34%35%36%37%38")).toBe(
      "/my-account/lineas/55••••5678",
    );
    expect(loggedPath("/my-account/lineas/%2B52551234%35678")).toBe(
      "/my-account/lineas/+52••••5678",
    );
    // Other escapes are left as they came: only what could spell a number is read.
    expect(loggedPath("/ayuda/%C3%B1")).toBe("/ayuda/%C3%B1");
  });

  it("leaves out the token of a 'no fui yo' link, and of its data request", () => {
    const token = "0123456789abcdef0123456789abcdef";
    expect(loggedPath(`/no-fui-yo/${token}`)).toBe("/no-fui-yo/••••");
    expect(loggedPath(`/no-fui-yo/${token}.data`)).toBe("/no-fui-yo/••••");
  });
});

describe("a request's id", () => {
  it("is the one a proxy in front gave it, when it looks like one", () => {
    for (const id of [
      "abc-123",
      "f47ac10b-58cc-4372-a567-0e02b2c3d479",
      "lb.01:req_9",
      "x".repeat(64),
    ]) {
      expect(requestIdOf(id)).toBe(id);
    }
  });

  it("is our own when the client's is missing, too long or not a plain token", () => {
    for (const id of [
      undefined,
      "",
      "x".repeat(65),
      "a b",
      "evil\nline",
      "<script>",
      "ñ",
      "id\u202E",
    ]) {
      const made = requestIdOf(id);
      expect(made, JSON.stringify(id)).not.toBe(id);
      expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe("the log lines of a request", () => {
  it("mask the line's number however the path spells it, the refused cross-site write's too, and carry our own id for a made-up one", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: "info" },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const app = express();
    app.use(requestLog(logger));
    app.use(refuseCrossSiteWrites(logger, ["http://tienda.test"]));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const spelled of ["5512345678", "+525512345678", "%35%35%31%32%33%34%35%36%37%38"]) {
        const answer = await fetch(`${base}/my-account/lineas/${spelled}`, {
          method: "POST",
          headers: { Origin: "https://otro.example", "X-Request-Id": "no es un id" },
        });
        expect(answer.status).toBe(403);
        expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const written = JSON.stringify(lines);
      expect(lines.filter((line) => line.msg === "cross-site write refused")).toHaveLength(3);
      expect(lines.filter((line) => line.msg === "request")).toHaveLength(3);
      for (const secret of ["12345678", "%35", "no es un id"]) {
        expect(written).not.toContain(secret);
      }
    } finally {
      server.close();
    }
  });
});

describe("the files of public/", () => {
  let publicDir: string;
  let server: Server;

  beforeEach(async () => {
    publicDir = mkdtempSync(path.join(tmpdir(), "public-"));
    mkdirSync(path.join(publicDir, "docs"));
    writeFileSync(path.join(publicDir, "favicon.ico"), "icon");
    writeFileSync(path.join(publicDir, "docs", "aviso.pdf"), "pdf");
    const app = express();
    app.use(publicFiles(publicDir));
    app.use((req, res) => {
      res.status(404).send(`route ${req.path}`);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
  });

  afterEach(async () => {
    server.close();
    await once(server, "close");
    rmSync(publicDir, { recursive: true, force: true });
  });

  it("serves public/'s files and asks the disk for nothing else but a file's path", async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stat = vi.spyOn(fs, "stat");
    const lookedUp = () => stat.mock.calls.map(([file]) => path.relative(publicDir, String(file)));
    try {
      expect(await (await fetch(`${origin}/favicon.ico`)).text()).toBe("icon");
      expect(await (await fetch(`${origin}/docs/aviso.pdf`)).text()).toBe("pdf");
      expect(lookedUp()).toEqual(["favicon.ico", path.join("docs", "aviso.pdf")]);
      stat.mockClear();
      for (const pathname of [
        "/plans",
        "/plans.data",
        "/_.data",
        "/my-account/lineas/5512345678.data",
        "/docs",
      ]) {
        expect(await (await fetch(`${origin}${pathname}`)).text()).toBe(`route ${pathname}`);
      }
      expect(lookedUp()).toEqual([]);
      // A file's path that is not in public/ is looked up, then goes on to the routes.
      expect(await (await fetch(`${origin}/docs/otro.pdf`)).text()).toBe("route /docs/otro.pdf");
      expect(lookedUp()).toEqual([path.join("docs", "otro.pdf")]);
    } finally {
      stat.mockRestore();
    }
  });
});
