import { describe, expect, it } from "vitest";
import {
  FORM_BODY_LIMIT_BYTES,
  formRequestProblem,
  readsAsEmptyForm,
  UPLOAD_BODY_LIMIT_BYTES,
} from "./form-requests";

const form = {
  method: "POST",
  path: "/cart",
  contentType: "application/x-www-form-urlencoded",
  contentLength: "42",
  transferEncoding: undefined,
};

describe("which form requests reach a page's action", () => {
  it("a browser's form, urlencoded or multipart, and every read", () => {
    expect(formRequestProblem(form)).toBeNull();
    expect(
      formRequestProblem({ ...form, contentType: "multipart/form-data; boundary=----x" }),
    ).toBeNull();
    expect(
      formRequestProblem({
        ...form,
        contentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
      }),
    ).toBeNull();
    expect(formRequestProblem({ ...form, method: "GET", contentType: undefined })).toBeNull();
  });

  it("lets a bodiless POST through whatever its content type, as an empty form", () => {
    for (const contentLength of [undefined, "0"]) {
      for (const contentType of [undefined, "application/json"]) {
        const bodiless = { ...form, contentType, contentLength };
        expect(formRequestProblem(bodiless)).toBeNull();
        expect(readsAsEmptyForm(bodiless)).toBe(true);
      }
    }
    expect(readsAsEmptyForm(form)).toBe(false);
    expect(readsAsEmptyForm({ ...form, method: "GET", contentLength: undefined })).toBe(false);
    expect(
      readsAsEmptyForm({ ...form, contentLength: undefined, transferEncoding: "chunked" }),
    ).toBe(false);
  });

  it("lets the photos of the line registration and of an order's holder through, and only there (the 64 KB limit elsewhere)", () => {
    const multipart = { ...form, contentType: "multipart/form-data; boundary=x" };
    const tenMegabytes = String(UPLOAD_BODY_LIMIT_BYTES);
    for (const path of [
      "/registro-de-linea",
      "/registro-de-linea.data",
      "/pedido/titular",
      "/pedido/titular.data",
    ]) {
      expect(formRequestProblem({ ...multipart, path, contentLength: tenMegabytes })).toBeNull();
      expect(
        formRequestProblem({
          ...multipart,
          path,
          contentLength: String(UPLOAD_BODY_LIMIT_BYTES + 1),
        })?.status,
      ).toBe(413);
    }
    for (const path of [
      "/saldo",
      "/registro-de-linea/otra",
      "/cuenta",
      "/pedido",
      "/confirmation",
    ]) {
      expect(
        formRequestProblem({ ...multipart, path, contentLength: tenMegabytes })?.status,
        path,
      ).toBe(413);
    }
  });

  it("refuses other content types with 415", () => {
    for (const contentType of ["application/json", "text/plain", "", undefined]) {
      expect(formRequestProblem({ ...form, contentType })?.status, String(contentType)).toBe(415);
    }
  });

  it("refuses bodies over the limit, or of undeclared length, before they are read", () => {
    expect(
      formRequestProblem({ ...form, contentLength: String(FORM_BODY_LIMIT_BYTES) }),
    ).toBeNull();
    expect(
      formRequestProblem({ ...form, contentLength: String(FORM_BODY_LIMIT_BYTES + 1) })?.status,
    ).toBe(413);
    expect(formRequestProblem({ ...form, contentLength: "abc" })?.status).toBe(413);
    expect(
      formRequestProblem({ ...form, contentLength: undefined, transferEncoding: "chunked" })
        ?.status,
    ).toBe(411);
  });

  it("lets the payment provider's and the SM-DP+'s JSON notifications through, under the same size limit", () => {
    const notification = {
      ...form,
      path: "/payments/webhook/sandbox",
      contentType: "application/json",
    };
    expect(formRequestProblem(notification)).toBeNull();
    expect(
      formRequestProblem({
        ...notification,
        path: "/gsma/rsp2/es2plus/handleDownloadProgressInfo",
      }),
    ).toBeNull();
    expect(
      formRequestProblem({
        ...notification,
        path: "/gsma/rsp2/es2plus/handleDownloadProgressInfo",
        contentLength: String(FORM_BODY_LIMIT_BYTES + 1),
      })?.status,
    ).toBe(413);
    expect(
      formRequestProblem({
        ...notification,
        contentLength: undefined,
        transferEncoding: "chunked",
      }),
    ).toBeNull();
    expect(
      formRequestProblem({ ...notification, contentLength: String(FORM_BODY_LIMIT_BYTES + 1) })
        ?.status,
    ).toBe(413);
  });
});
